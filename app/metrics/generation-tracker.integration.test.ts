import { loadavg } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { RequestTimings } from '../contract/generation'
import { GenerationTracker, threadsFromLog, type RateSample } from './generation-tracker'
import { median } from './median'
import { modelsDir } from '../../test/support/metrics/fixtures'
import { startTinyServer, streamCompletion, type TinyServer } from '../../test/support/metrics/tiny-server'

// Real llama-server, tiny models: figures printed so the lead can report them.
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function setup(
  extraArgs: string[] = [],
  apiKey?: string,
  modelFile?: string,
): Promise<{ server: TinyServer; tracker: GenerationTracker; samples: RateSample[]; requests: RequestTimings[] }> {
  let tracker: GenerationTracker | null = null
  const server = await startTinyServer(extraArgs, (line) => tracker?.feedLogLine(line), modelFile)
  cleanups.push(() => server.stop())
  tracker = new GenerationTracker({
    baseUrl: server.baseUrl,
    apiKey: apiKey ?? null,
    profileId: 'tiny',
    threads: threadsFromLog(server.lines),
  })
  const t = tracker
  cleanups.unshift(() => t.stop()) // stopped before the server
  const samples: RateSample[] = []
  const requests: RequestTimings[] = []
  tracker.on('rate', (s) => samples.push(s))
  tracker.on('request', (r) => requests.push(r))
  tracker.start(server.supervisor.getRequestSignal())
  return { server, tracker, samples, requests }
}

// A generous sanity deadline: the awaited record follows the request's own log lines within milliseconds.
async function until(cond: () => boolean, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** The log's own `eval time` line for a task, as numbers. */
function loggedEval(lines: readonly string[], taskId: number): { ms: number; tokens: number; perSecond: number } {
  const line = lines.find((l) => l.includes(`| task ${taskId} |`) && /\|\s+eval time =/.test(l))
  const m = /eval time =\s*([\d.]+) ms \/\s*(\d+) tokens \(\s*[\d.]+ ms per token,\s*([\d.]+) tokens per second\)/.exec(line ?? '')
  if (!m) throw new Error(`no eval line for task ${taskId}`)
  return { ms: Number(m[1]), tokens: Number(m[2]), perSecond: Number(m[3]) }
}

describe('GenerationTracker on the real llama-server', () => {
  it('shows the live rate of an outside client while it generates and agrees with the server (1,000 tokens)', async () => {
    const { server, tracker, samples, requests } = await setup()
    const stamped: { at: number; sample: RateSample; decoded: number | null }[] = []
    tracker.on('rate', (sample) => stamped.push({ at: performance.now(), sample, decoded: tracker.snapshot().slots[0]?.decoded ?? null }))
    const done = await streamCompletion(server.baseUrl, { prompt: 'Hello', n_predict: 1000, ignore_eos: true })
    await until(() => requests.length === 1)

    const during = stamped.filter((s) => s.at >= done.firstTokenAt && s.at <= done.endAt && s.sample.tokensPerSecond !== null)
    const firstLive = during[0]
    expect(firstLive).toBeDefined()
    const appearMs = firstLive!.at - done.firstTokenAt
    const live = during.map((s) => s.sample.tokensPerSecond!)
    const med = median(live)!
    const server_ = done.timings.predicted_per_second!
    const ratio = med / server_
    const sorted = [...live].sort((x, y) => x - y)
    const deciles = [0.1, 0.25, 0.5, 0.75, 0.9].map((q) => sorted[Math.floor(q * (sorted.length - 1))]!.toFixed(1)).join('/')
    console.log(
      `[metrics] 1000 tokens: first live figure ${appearMs.toFixed(0)} ms after the first token; ${live.length} live samples, median ` +
        `${med.toFixed(2)} ` +
        `tok/s vs server ${server_.toFixed(2)} tok/s (ratio ${ratio.toFixed(4)}); p10/p25/p50/p75/p90 ${deciles}; load ` +
        `${loadavg()[0]!.toFixed(2)}`,
    )
    // Σ tokens / Σ time over the polls: what the per-interval figures add up to.
    const counted = stamped.filter((s) => s.decoded !== null && s.decoded > 0 && s.at <= done.endAt)
    const cumulative = ((counted.at(-1)!.decoded! - counted[0]!.decoded!) * 1000) / (counted.at(-1)!.at - counted[0]!.at)
    const spread = (Number(sorted[Math.floor(0.75 * (sorted.length - 1))]) - Number(sorted[Math.floor(0.25 * (sorted.length - 1))])) / med
    console.log(
      `[metrics] 1000 tokens: cumulative live ${cumulative.toFixed(2)} tok/s (ratio ${(cumulative / server_).toFixed(4)}); ` +
        `interquartile spread ${(spread * 100).toFixed(1)}% of the median`,
    )
    // Correctness, not the goals: the live figure appears while the request still runs and tracks
    // what is generated. On a busy machine (another test's server beside it) the speed changes during
    // the request, so the figures are held against what this client received over the same intervals,
    // not against the server's average over the whole request (in one suite run the poll window's rate
    // was 0.51× of it). The goals (first figure within 1 s, within 2 % of the server's own figure)
    // are measured by `npm run bench live` as medians over alternated runs.
    const received = (from: number, to: number): number => done.tokenTimes.filter((t) => t > from && t <= to).length
    const clientWindow = (received(counted[0]!.at, counted.at(-1)!.at) * 1000) / (counted.at(-1)!.at - counted[0]!.at)
    const clientRates = during.slice(1).map((s, i) => (received(during[i]!.at, s.at) * 1000) / (s.at - during[i]!.at))
    const clientMedian = median(clientRates)!
    console.log(
      `[metrics] 1000 tokens: the client received ${clientWindow.toFixed(2)} tok/s over the tracker's window (tracker/client ` +
        `${(cumulative / clientWindow).toFixed(4)}); ` +
        `median per interval ${clientMedian.toFixed(2)} (live/client ${(med / clientMedian).toFixed(4)})`,
    )
    expect(appearMs).toBeLessThan(done.endAt - done.firstTokenAt)
    expect(Math.abs(cumulative / clientWindow - 1)).toBeLessThan(0.25)
    expect(Math.abs(med / clientMedian - 1)).toBeLessThan(0.25)

    // The per-request record is the log's figures, and those are the server's timings.
    const rec = requests[0]!
    const logged = loggedEval(server.lines, rec.taskId!)
    expect([rec.predictedMs, rec.predictedTokens, rec.predictedTokensPerSecond]).toEqual([logged.ms, logged.tokens, logged.perSecond])
    expect(rec.predictedTokens).toBe(done.timings.predicted_n)
    expect(rec.promptTokens).toBe(done.timings.prompt_n)
    expect(Math.abs(rec.predictedTokensPerSecond - done.timings.predicted_per_second!)).toBeLessThanOrEqual(0.005 + 1e-9)
    expect(Math.abs(rec.promptTokensPerSecond - done.timings.prompt_per_second!)).toBeLessThanOrEqual(0.005 + 1e-9)
    expect(rec.slotId).toBe(done.slotId)
    expect(rec.draftTokens).toBeNull()

    const snap = tracker.snapshot()
    expect(snap.last).toEqual(rec)
    expect(tracker.history().requests).toEqual([rec])
    expect(snap.rolling).toMatchObject({ profileId: 'tiny', requests: 1, medianTokensPerSecond: rec.predictedTokensPerSecond })
    expect(tracker.history().perSecond.filter((p) => p.tokensPerSecond > 0).length).toBeGreaterThan(3)
    expect(snap.contextSize).toBe(4096)
    expect(snap.threads).toBe(1) // from the server's own system_info line (-t 1)
    expect(samples.length).toBeGreaterThan(5)
  }, 300_000)

  it('reports speculative acceptance equal to draft_n_accepted / draft_n', async () => {
    const { server, tracker, requests } = await setup(['-md', join(modelsDir, 'tiny-draft.gguf'), '--spec-type', 'draft-simple'])
    const done = await streamCompletion(server.baseUrl, { prompt: 'Hello', n_predict: 300, ignore_eos: true })
    await until(() => requests.length === 1)
    const rec = requests[0]!
    const { draft_n, draft_n_accepted } = done.timings
    console.log(
      `[metrics] draft-simple: record ${rec.draftAccepted}/${rec.draftTokens} = ${rec.draftAcceptance}; server ${draft_n_accepted}/` +
        `${draft_n} ` +
        `= ${(draft_n_accepted! / draft_n!).toFixed(5)}; ${rec.predictedTokensPerSecond} tok/s`,
    )
    expect(rec.draftTokens).toBe(draft_n)
    expect(rec.draftAccepted).toBe(draft_n_accepted)
    expect(rec.draftAcceptance).toBeCloseTo(draft_n_accepted! / draft_n!, 5)
    expect(tracker.snapshot().rolling?.draftAcceptance).toBe(draft_n_accepted! / draft_n!)
  }, 180_000)

  it('reports an MTP head’s acceptance like a draft model’s (--spec-type draft-mtp)', async () => {
    const { server, tracker, requests } = await setup(['--spec-type', 'draft-mtp'], undefined, 'tiny-target-mtp.gguf')
    const done = await streamCompletion(server.baseUrl, { prompt: 'Hello', n_predict: 200, ignore_eos: true })
    await until(() => requests.length === 1)
    const rec = requests[0]!
    const { draft_n, draft_n_accepted } = done.timings
    console.log(
      `[metrics] draft-mtp: record ${rec.draftAccepted}/${rec.draftTokens} = ${rec.draftAcceptance}; server ${draft_n_accepted}/${draft_n}`,
    )
    expect(draft_n).toBeGreaterThan(0)
    expect(rec.draftTokens).toBe(draft_n)
    expect(rec.draftAccepted).toBe(draft_n_accepted)
    expect(tracker.snapshot().rolling?.draftAcceptance).toBeCloseTo(draft_n_accepted! / draft_n!, 9)
  }, 180_000)

  it('shows two parallel requests on two slots, per slot and summed', async () => {
    const { server, tracker, samples } = await setup(['-np', '2'])
    const snaps: ReturnType<GenerationTracker['snapshot']>[] = []
    tracker.on('rate', () => snaps.push(tracker.snapshot()))
    const [a, b] = await Promise.all([
      streamCompletion(server.baseUrl, { prompt: 'Hello', n_predict: 300, ignore_eos: true }),
      streamCompletion(server.baseUrl, { prompt: 'Hi there', n_predict: 300, ignore_eos: true }),
    ])
    const both = samples.filter((s) => s.perSlot.size === 2)
    const bothSnaps = snaps.filter((s) => s.slots.filter((x) => x.state === 'generating' && x.tokensPerSecond !== null).length === 2)
    const sums = both.map((s) => s.tokensPerSecond!)
    console.log(
      `[metrics] two slots: ${both.length} polls with both slots rated; median sum ${median(sums)?.toFixed(1)} tok/s; server per ` +
        `request ${a.timings.predicted_per_second?.toFixed(1)} + ${b.timings.predicted_per_second?.toFixed(1)}`,
    )
    expect(a.slotId).not.toBe(b.slotId)
    expect(both.length).toBeGreaterThan(2)
    expect(bothSnaps.length).toBeGreaterThan(0)
    const s = bothSnaps[0]!
    expect(s.tokensPerSecond).toBeCloseTo(
      s.slots.reduce((acc, x) => acc + (x.tokensPerSecond ?? 0), 0),
      9,
    )
    expect(s.active).toBe(true)
  }, 300_000)

  it('uses the API key, reports a refused poll, and stops with the supervisor', async () => {
    const { server, tracker, samples } = await setup(['--api-key', 'sekret'], 'sekret')
    await until(() => samples.length > 0)
    expect(tracker.snapshot().poll.state).toBe('ok')

    const keyless = new GenerationTracker({ baseUrl: server.baseUrl, profileId: 'tiny' })
    keyless.start()
    await until(() => keyless.snapshot().poll.state === 'unauthorized')
    await keyless.stop()
    expect(keyless.snapshot().poll.state).toBe('stopped')

    await server.supervisor.stop() // aborts getRequestSignal(): the tracker's poller stops by itself
    expect(tracker.snapshot().poll.state).toBe('stopped')
    expect(tracker.snapshot().active).toBe(false)
  }, 180_000)
})
