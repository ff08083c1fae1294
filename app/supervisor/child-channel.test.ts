import { describe, expect, it } from 'vitest'
import { exitCommandLine, offersChildChannel, parseChildLine } from './child-channel'

// Lines as the pinned llama-server writes them (a 0.5 GB synthetic model, -lm none, a draft).
const LOADING =
  'cmd_child_to_router:state:{"payload":{"current":"text_model","stages":["text_model","spec_model"],"value":0.4216},"state":"loading"}'

describe('parseChildLine', () => {
  it('reads a loading line as the stage, the stages and the fraction', () => {
    expect(parseChildLine(LOADING)).toEqual({
      kind: 'loading',
      progress: { stage: 'text_model', stages: ['text_model', 'spec_model'], value: 0.4216 },
    })
  })

  it('reads the projector stage, which has no fraction', () => {
    expect(parseChildLine('cmd_child_to_router:state:{"state":"loading","payload":{"stage":"mmproj_model"}}')).toEqual({
      kind: 'loading',
      progress: { stage: 'mmproj_model', stages: ['mmproj_model'], value: null },
    })
  })

  it('reads ready with the model info, ready after a wake and sleeping', () => {
    expect(parseChildLine('cmd_child_to_router:state:{"state":"ready","payload":{"id":"m.gguf","meta":{"n_ctx":512}}}')).toEqual({
      kind: 'ready',
    })
    expect(parseChildLine('cmd_child_to_router:state:{"payload":null,"state":"ready"}')).toEqual({ kind: 'ready' })
    expect(parseChildLine('cmd_child_to_router:state:{"payload":null,"state":"sleeping"}')).toEqual({ kind: 'sleeping' })
  })

  it('finds the prefix after a colour reset the logger left on the line', () => {
    expect(parseChildLine(`\u001b[0m${LOADING}`)?.kind).toBe('loading')
  })

  it('is null for every other log line', () => {
    expect(parseChildLine('srv  load_model: loading model')).toBeNull()
    expect(parseChildLine('')).toBeNull()
  })

  it('says what is wrong with a malformed line instead of throwing', () => {
    expect(parseChildLine('cmd_child_to_router:state:{"state":"loading"')).toMatchObject({ kind: 'malformed' })
    expect(parseChildLine('cmd_child_to_router:state:{"state":"flying","payload":{}}')).toMatchObject({ kind: 'malformed' })
    expect(parseChildLine('cmd_child_to_router:state:{"state":"loading","payload":{"value":7}}')).toMatchObject({ kind: 'malformed' })
    expect(parseChildLine('cmd_child_to_router:state:[1,2]')).toMatchObject({ kind: 'malformed' })
  })
})

describe('exitCommandLine', () => {
  it('is the one line llama-server exits on', () => {
    expect(exitCommandLine()).toBe('cmd_router_to_child:exit\n')
  })
})

describe('offersChildChannel', () => {
  it('offers it to mainline from router mode on, to semver versions and to engines not probed yet', () => {
    expect(offersChildChannel({ fork: 'mainline', version: 'v0.5.0' })).toBe(true)
    expect(offersChildChannel({ fork: 'mainline', version: 'b7400' })).toBe(true)
    expect(offersChildChannel({ fork: 'mainline', version: null })).toBe(true)
    expect(offersChildChannel(null)).toBe(true)
  })

  it('does not offer it to older mainline builds nor to ik_llama.cpp', () => {
    expect(offersChildChannel({ fork: 'mainline', version: '4567' })).toBe(false)
    expect(offersChildChannel({ fork: 'ik_llama', version: '3800' })).toBe(false)
  })
})
