import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { allFixtureLogs, fixtureText, linesOf } from '../../test/support/metrics/fixtures'
import { TimingLogParser, type RequestRecord, type TimingEvent } from './timing-log-parser'

function parseAll(lines: readonly string[]): TimingEvent[] {
  const parser = new TimingLogParser()
  const out: TimingEvent[] = []
  for (const l of lines) out.push(...parser.feed(l))
  out.push(...parser.flush())
  return out
}

function records(events: readonly TimingEvent[]): RequestRecord[] {
  return events.flatMap((e) => (e.kind === 'request' ? [e.record] : []))
}

describe('TimingLogParser on real logs', () => {
  it('reads the v0.5.0 one-line-per-field layout with draft acceptance', () => {
    const recs = records(parseAll(linesOf(fixtureText('llama-server', 'logs', 'spec_draft_simple.log'))))
    expect(recs[0]).toEqual({
      slotId: 3,
      taskId: 0,
      promptTokens: 2,
      promptMs: 13.1,
      promptTokensPerSecond: 152.68,
      predictedTokens: 256,
      predictedMs: 1296.83,
      predictedTokensPerSecond: 196.63,
      draftTokens: 213,
      draftAccepted: 163,
      draftAcceptance: 0.76526,
    })
    expect(recs[1]).toMatchObject({
      slotId: 2,
      taskId: 94,
      promptTokens: 12,
      predictedTokens: 195,
      predictedTokensPerSecond: 189.16,
      draftTokens: 168,
      draftAccepted: 119,
    })
  })

  it('reads a v0.5.0 record without drafting and reports no draft figures', () => {
    const recs = records(parseAll(linesOf(fixtureText('llama-server', 'logs', 'target_default.log'))))
    expect(recs.length).toBeGreaterThan(0)
    for (const r of recs) expect(r).toMatchObject({ draftTokens: null, draftAccepted: null, draftAcceptance: null })
    expect(recs[0]?.slotId).not.toBeNull()
  })

  it('reads the multi-line layout of ik_llama with `draft acceptance rate`', () => {
    const recs = records(parseAll(linesOf(fixtureText('llama-server-forks', 'ik', 'draft.stderr.txt'))))
    expect(recs[0]).toEqual({
      slotId: 0,
      taskId: 4,
      promptTokens: 2,
      promptMs: 53.51,
      promptTokensPerSecond: 37.38,
      predictedTokens: 256,
      predictedMs: 10904.59,
      predictedTokensPerSecond: 23.48,
      draftTokens: 424,
      draftAccepted: 202,
      draftAcceptance: 0.47642,
    })
  })

  it('reads the multi-line layout of buun (no draft line, `statistics` and release follow)', () => {
    const recs = records(parseAll(linesOf(fixtureText('llama-server-forks', 'buun', 'draft_ngram_simple_qwen3.stderr.txt'))))
    expect(recs[0]).toEqual({
      slotId: 0,
      taskId: 0,
      promptTokens: 2,
      promptMs: 0.41,
      promptTokensPerSecond: 4854.37,
      predictedTokens: 256,
      predictedMs: 32.93,
      predictedTokensPerSecond: 7773.59,
      draftTokens: null,
      draftAccepted: null,
      draftAcceptance: null,
    })
  })

  it('finds exactly one record per `prompt eval time` line in every fixture log, each matching its eval line', () => {
    let total = 0
    for (const { name, text } of allFixtureLogs()) {
      const lines = linesOf(text)
      const evalLines = lines.filter(
        (l) => /^\s*(?:\S.*\| )?\s*eval time =/.test(l.replace(/^\d+\.\d{2}\.\d{3}\.\d{3} [IWEDT] /, '')) && !l.includes('prompt eval'),
      )
      const recs = records(parseAll(lines))
      expect(recs.length, name).toBe(lines.filter((l) => l.includes('prompt eval time =')).length)
      recs.forEach((r, i) => {
        const m = /eval time =\s*([\d.]+) ms \/\s*(\d+) tokens \(\s*[\d.]+ ms per token,\s*([\d.]+) tokens per second\)/.exec(
          evalLines[i] ?? '',
        )
        expect(m, `${name} record ${i}`).not.toBeNull()
        expect([r.predictedMs, r.predictedTokens, r.predictedTokensPerSecond], name).toEqual([Number(m![1]), Number(m![2]), Number(m![3])])
      })
      total += recs.length
    }
    expect(total).toBeGreaterThan(20)
  })

  it('counts draft acceptance exactly as logged, in every layout', () => {
    for (const { name, text } of allFixtureLogs()) {
      const lines = linesOf(text)
      const draftLines = lines.filter((l) => /draft acceptance(?: rate)? =/.test(l))
      const recs = records(parseAll(lines)).filter((r) => r.draftTokens !== null)
      expect(recs.length, name).toBe(draftLines.length)
      recs.forEach((r, i) => {
        const m = /= ([\d.]+) \(\s*(\d+) accepted \/\s*(\d+) generated\)/.exec(draftLines[i] ?? '')!
        expect([r.draftAcceptance, r.draftAccepted, r.draftTokens], name).toEqual([Number(m[1]), Number(m[2]), Number(m[3])])
      })
    }
  })

  it('emits live generation and prompt progress from the v0.5.0 live lines', () => {
    const events = parseAll(linesOf(fixtureText('llama-server', 'logs', 'target_long.log')))
    const live = events.filter((e) => e.kind === 'live')
    const progress = events.filter((e) => e.kind === 'prompt-progress')
    expect(live[0]).toEqual({ kind: 'live', slotId: 0, taskId: 0, generated: 127, tokensPerSecond: 41.92, tokensPerSecond3s: 42.25 })
    expect(progress[0]).toEqual({ kind: 'prompt-progress', slotId: 0, taskId: 0, processed: 2048, progress: 0.53, tokensPerSecond: 680.68 })
    expect(progress.at(-1)).toMatchObject({ progress: 1 })
  })

  it('emits task start and end with the context size at release', () => {
    const events = parseAll(linesOf(fixtureText('llama-server', 'logs', 'spec_draft_simple.log')))
    expect(events.find((e) => e.kind === 'task-start')).toEqual({ kind: 'task-start', slotId: 3, taskId: 0 })
    expect(events.find((e) => e.kind === 'task-end')).toEqual({ kind: 'task-end', slotId: 3, taskId: 0, contextTokens: 257 })
  })

  it('reads the older buun/mainline `prompt processing progress` line', () => {
    const events = parseAll([
      'slot update_slots: id  0 | task 7 | prompt processing progress, n_tokens = 512, batch.n_tokens = 512, progress = 0.250000',
    ])
    expect(events).toEqual([{ kind: 'prompt-progress', slotId: 0, taskId: 7, processed: 512, progress: 0.25, tokensPerSecond: null }])
  })

  it('unwraps --log-jsonl messages, including the multi-line timing block', () => {
    const msg =
      'slot print_timing: id  1 | task 9 | \nprompt eval time =      10.00 ms /     4 tokens (    2.50 ms per token,   400.00 tokens ' +
      'per second)\n       eval time =     100.00 ms /    10 tokens (   10.00 ms per token,   100.00 tokens per second)\n      total ' +
      'time =     110.00 ms /    14 tokens\n'
    const lines = [
      JSON.stringify({ type: 'log', time: 1, level: 'info', msg }),
      JSON.stringify({
        type: 'log',
        time: 2,
        level: 'info',
        msg: 'slot      release: id  1 | task 9 | stop processing: n_tokens = 14, truncated = 0\n',
      }),
    ]
    expect(records(parseAll(lines))).toEqual([
      {
        slotId: 1,
        taskId: 9,
        promptTokens: 4,
        promptMs: 10,
        promptTokensPerSecond: 400,
        predictedTokens: 10,
        predictedMs: 100,
        predictedTokensPerSecond: 100,
        draftTokens: null,
        draftAccepted: null,
        draftAcceptance: null,
      },
    ])
  })

  it('reads 0-token phases printed with nan/inf as 0 tokens per second', () => {
    const recs = records(
      parseAll([
        'slot print_timing: id  0 | task 3 | prompt eval time =       0.00 ms /     0 tokens (    -nan ms per token,     -nan tokens ' +
          'per second)',
        'slot print_timing: id  0 | task 3 |        eval time =      12.00 ms /     1 tokens (   12.00 ms per token,      inf tokens ' +
          'per second)',
        'slot      release: id  0 | task 3 | stop processing: n_tokens = 5, truncated = 0',
      ]),
    )
    expect(recs).toMatchObject([{ promptTokens: 0, promptTokensPerSecond: 0, predictedTokens: 1, predictedTokensPerSecond: 0 }])
  })

  it('completes a record waiting for a draft line once it is stale', () => {
    let now = 0
    const parser = new TimingLogParser({ now: () => now })
    parser.feed(
      'slot print_timing: id  0 | task 1 | prompt eval time =       5.00 ms /     2 tokens (    2.50 ms per token,   400.00 tokens per ' +
        'second)',
    )
    parser.feed(
      'slot print_timing: id  0 | task 1 |        eval time =      50.00 ms /     9 tokens (    5.56 ms per token,   180.00 tokens per ' +
        'second)',
    )
    expect(parser.flushStale(500)).toEqual([])
    now = 600
    expect(records(parser.flushStale(500))).toMatchObject([{ taskId: 1, predictedTokens: 9 }])
    expect(parser.hasPending).toBe(false)
  })
})

// ---- property tests: never throws, bounded, robust to interleaved noise ----

const realLines = allFixtureLogs().flatMap(({ text }) => linesOf(text))
const timingLikeLines = realLines.filter((l) => /time =|acceptance|n_gen =|progress|print_timing|release/.test(l))

const garbage = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom(...timingLikeLines).map((l) => l),
  // Real timing lines cut short or with a character replaced.
  fc.tuple(fc.constantFrom(...timingLikeLines), fc.nat(), fc.string({ maxLength: 3 })).map(([l, n, s]) => {
    const at = n % (l.length + 1)
    return l.slice(0, at) + s + l.slice(at + 1)
  }),
  fc.constantFrom(
    '{"type":"log","msg":',
    '{"type":"log","msg":42}',
    '{"type":"log","msg":"eval time = 1 ms / 2 tokens"}',
    'slot print_timing: id  0 | task 0 | ',
    '\u001b[31m',
    '',
  ),
  fc.string({ maxLength: 20 }).map((s) => `slot print_timing: id  0 | task 0 | ${s}`),
  fc
    .tuple(fc.double(), fc.integer(), fc.double(), fc.double())
    .map(([ms, n, a, b]) => `prompt eval time = ${ms} ms / ${n} tokens (${a} ms per token, ${b} tokens per second)`),
)

describe('TimingLogParser properties', () => {
  it('never throws and returns well-formed events on arbitrary and mutated lines', () => {
    fc.assert(
      fc.property(fc.array(garbage, { maxLength: 40 }), (lines) => {
        const parser = new TimingLogParser()
        for (const l of lines) {
          for (const e of parser.feed(l)) {
            expect(['request', 'task-start', 'task-end', 'live', 'prompt-progress']).toContain(e.kind)
            if (e.kind === 'request') {
              expect(Number.isFinite(e.record.predictedTokensPerSecond)).toBe(true)
              expect(Number.isFinite(e.record.promptMs)).toBe(true)
            }
          }
        }
        parser.flush()
      }),
      { numRuns: 10_000 },
    )
  })

  it('never throws on every real fixture line fed in random order', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(realLines, { minLength: 0, maxLength: 300 }), (lines) => {
        const parser = new TimingLogParser()
        for (const l of lines) parser.feed(l)
        parser.flush()
      }),
      { numRuns: 200 },
    )
  })

  it('handles a huge line quickly', () => {
    const parser = new TimingLogParser()
    const t0 = performance.now()
    expect(parser.feed('x'.repeat(5_000_000))).toEqual([])
    expect(parser.feed(`slot print_timing: id  0 | task 0 | prompt eval time = ${'9'.repeat(1_000_000)}`)).toEqual([])
    // Linear, not quadratic: a backtracking pattern on these lines would take minutes, not a generous 15 s.
    expect(performance.now() - t0).toBeLessThan(15_000)
  })

  it('finds the same records when up to two unrelated lines are inserted anywhere', () => {
    const lines = linesOf(fixtureText('llama-server-forks', 'ik', 'draft.stderr.txt'))
    const expected = records(parseAll(lines))
    const noise = fc.constantFrom(
      'INFO [ log_server_request] request | method="GET" path="/slots"',
      'srv  update_slots: all slots are idle',
      'random noise',
      '',
    )
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(lines.length), noise), { maxLength: 2 }), (inserts) => {
        const copy = [...lines]
        for (const [at, l] of inserts.sort((a, b) => b[0] - a[0])) copy.splice(at, 0, l)
        const got = records(parseAll(copy))
        // An insert between `total time` and `draft acceptance rate` may complete the record
        // before its draft line; every other figure must be unchanged.
        expect(got.map((r) => [r.taskId, r.promptTokens, r.predictedTokens, r.predictedTokensPerSecond])).toEqual(
          expected.map((r) => [r.taskId, r.promptTokens, r.predictedTokens, r.predictedTokensPerSecond]),
        )
      }),
      { numRuns: 300 },
    )
  })
})
