import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseSlots, parseSlotsText } from './slots-parser'
import { fixtureJson, fixtureText } from '../../test/support/metrics/fixtures'

interface PollEntry {
  readonly json: unknown
}

describe('parseSlots on real answers', () => {
  it('reads mainline v0.5.0: next_token as an array, idle slots with only id and n_ctx', () => {
    const slots = parseSlots(fixtureJson('llama-server', 'responses', 'slots_during_generation.json'))
    expect(slots).toHaveLength(4)
    expect(slots?.[0]).toMatchObject({ id: 0, processing: false, taskId: null, nDecoded: null, nCtx: 16384 })
    expect(slots?.[2]).toEqual({
      id: 2,
      taskId: 774,
      processing: true,
      nDecoded: 55,
      nRemain: 201,
      nPromptTokens: 60,
      nPromptTokensProcessed: 5,
      nPromptTokensCache: 0,
      nCtx: 16384,
    })
  })

  it('reads every v0.5.0 /slots fixture as a list of slots', () => {
    for (const f of ['slots_idle', 'slots_spec_draft_qwen35', 'slots_spec_draft_simple', 'slots_spec_md_only', 'slots_spec_mtp']) {
      const slots = parseSlots(fixtureJson('llama-server', 'responses', `${f}.json`))
      expect(slots?.length, f).toBeGreaterThan(0)
    }
  })

  it('reads buun (is_processing, next_token array) across a poll timeline', () => {
    const polls = fixtureJson('llama-server-forks', 'buun', 'main_qwen35moe.slots_poll.json') as PollEntry[]
    const busy = polls.map((p) => parseSlots(p.json)?.[0]).filter((s) => s?.processing)
    expect(busy.length).toBeGreaterThan(5)
    const decoded = busy.map((s) => s!.nDecoded!)
    expect(decoded).toEqual([...decoded].sort((a, b) => a - b))
    expect(busy[0]).toMatchObject({ taskId: 582, nCtx: 4096 })
  })

  it('reads ik_llama (state 0/1, next_token as an object)', () => {
    const polls = fixtureJson('llama-server-forks', 'ik', 'main_qwen35moe.slots_poll.json') as PollEntry[]
    const slots = polls.map((p) => parseSlots(p.json)?.[0])
    expect(slots[0]).toMatchObject({ id: 0, processing: false, nDecoded: 32, taskId: 582, nCtx: 4096 })
    expect(slots[1]).toMatchObject({ id: 0, processing: true, nDecoded: 9, nRemain: 247, taskId: 582, nPromptTokens: null })
  })

  it('rejects error bodies and garbage', () => {
    expect(parseSlotsText('{"error":{"code":501,"message":"This server does not support slots endpoint."}}')).toBeNull()
    expect(parseSlotsText('not json')).toBeNull()
    expect(parseSlotsText(fixtureText('llama-server', 'responses', 'health_ok.json'))).toBeNull()
    expect(parseSlots([1, 'x', null, { id: 3 }])).toEqual([])
  })
})

describe('parseSlots properties', () => {
  it('never throws on arbitrary JSON and returns only well-typed slots', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const slots = parseSlots(v)
        if (slots === null) return
        for (const s of slots) {
          expect(typeof s.processing).toBe('boolean')
          expect(Number.isInteger(s.id)).toBe(true)
          for (const n of [s.nDecoded, s.nRemain, s.nCtx, s.taskId]) expect(n === null || Number.isInteger(n)).toBe(true)
        }
      }),
      { numRuns: 10_000 },
    )
  })

  it('reads back generated slots in all three shapes', () => {
    const slot = fc.record({
      id: fc.nat(64),
      idTask: fc.nat(1e6),
      busy: fc.boolean(),
      decoded: fc.nat(1e6),
      remain: fc.integer({ min: -1, max: 1e6 }),
      shape: fc.constantFrom('mainline', 'ik'),
      arrayNext: fc.boolean(),
    })
    fc.assert(
      fc.property(fc.array(slot, { maxLength: 8 }), (gen) => {
        const body = gen.map((g) => {
          const next = { has_next_token: g.busy, n_remain: g.remain, n_decoded: g.decoded }
          return g.shape === 'mainline'
            ? { id: g.id, n_ctx: 4096, is_processing: g.busy, id_task: g.idTask, next_token: g.arrayNext ? [next] : next }
            : { id: g.id, n_ctx: 4096, state: g.busy ? 1 : 0, id_task: g.idTask, prompt: 'x', next_token: next }
        })
        const parsed = parseSlotsText(JSON.stringify(body))
        expect(parsed?.map((s) => [s.id, s.processing, s.nDecoded, s.nRemain, s.taskId])).toEqual(
          gen.map((g) => [g.id, g.busy, g.decoded, g.remain, g.idTask]),
        )
      }),
      { numRuns: 2000 },
    )
  })
})
