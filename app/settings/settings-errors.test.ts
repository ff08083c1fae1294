import { describe, expect, it } from 'vitest'
import { portOverride } from './port-override'
import { SettingValueError } from './setting-text'

describe('settings errors as problems', () => {
  it('says a refused value and a bad $LLAMA_TRAY_PORT as settings problems', () => {
    expect(new SettingValueError('The port setting takes a whole number.').toProblem()).toEqual({
      kind: 'settings',
      sentence: 'The port setting takes a whole number.',
    })
    let thrown: unknown = null
    try {
      portOverride({ LLAMA_TRAY_PORT: 'abc' })
    } catch (err) {
      thrown = err
    }
    expect((thrown as { toProblem(): unknown }).toProblem()).toMatchObject({
      kind: 'settings',
      sentence: expect.stringMatching(/^LLAMA_TRAY_PORT is "abc"/),
    })
  })
})
