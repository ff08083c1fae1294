import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serverOrigin } from '../app/contract/client-url'
import { GenerationTracker } from '../app/metrics/generation-tracker'
import { median as medianOrNull } from '../app/metrics/median'
import { streamCompletion } from '../test/support/metrics/stream-completion'
import { ServerSupervisor } from '../app/supervisor/supervisor'
import { median, type BenchRow } from './bench-row'
import { onCleanup } from './cleanup'

/**
 * The live figure's goals, measured here rather than asserted in tests: it appears within 1 s of the
 * first token, and what the live figures add up to agrees with the server's own predicted_per_second
 * within 2 %. The server's timings of the same request are the baseline. The real supervisor feeds
 * the tracker its log lines, as in the app (the "task started" line wakes the poller).
 */
export async function benchLiveFigures(bin: string, model: string, runs = 7, nPredict = 300): Promise<BenchRow[]> {
  let tracker: GenerationTracker | null = null
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-bench-live-'))
  const supervisor = new ServerSupervisor({ home })
  supervisor.on('log', (line) => tracker?.feedLogLine(line))
  const stop = async (): Promise<void> => {
    await supervisor.dispose()
    rmSync(home, { recursive: true, force: true })
  }
  const off = onCleanup(stop)
  const status = await supervisor.start({ profileId: 'bench', exe: bin, args: ['-m', model, '-c', '4096', '-np', '1', '--seed', '1'] })
  if (status.state !== 'ready') {
    await stop()
    throw new Error(`bench: llama-server did not start (${status.state})`)
  }
  const server = { baseUrl: serverOrigin(status.host, status.port), supervisor }
  const appear: number[] = []
  const cumulative: number[] = []
  const medians: number[] = []
  try {
    tracker = new GenerationTracker({ baseUrl: server.baseUrl, profileId: 'bench' })
    const t = tracker
    const stamped: { at: number; rate: number | null; decoded: number | null }[] = []
    t.on('rate', (sample) =>
      stamped.push({ at: performance.now(), rate: sample.tokensPerSecond, decoded: t.snapshot().slots[0]?.decoded ?? null }),
    )
    t.start(server.supervisor.getRequestSignal())
    await streamCompletion(server.baseUrl, { prompt: 'Hello', n_predict: 32, ignore_eos: true }) // warm-up
    for (let i = 0; i < runs; i++) {
      stamped.length = 0
      const done = await streamCompletion(server.baseUrl, { prompt: 'Hello', n_predict: nPredict, ignore_eos: true, cache_prompt: false })
      const serverRate = done.timings.predicted_per_second as number
      const during = stamped.filter((s) => s.at >= done.firstTokenAt && s.at <= done.endAt && s.rate !== null)
      if (during.length > 0) appear.push((during[0] as { at: number }).at - done.firstTokenAt)
      const counted = stamped.filter((s) => s.decoded !== null && s.decoded > 0 && s.at <= done.endAt)
      if (counted.length >= 2) {
        const first = counted[0] as { at: number; decoded: number }
        const last = counted.at(-1) as { at: number; decoded: number }
        cumulative.push(((last.decoded - first.decoded) * 1000) / (last.at - first.at) / serverRate)
      }
      const m = medianOrNull(during.map((s) => s.rate as number))
      if (m !== null) medians.push(m / serverRate)
      await new Promise((r) => setTimeout(r, 1500)) // back to the idle pace before the next request
    }
    await t.stop()
  } finally {
    await stop()
    off()
  }
  const worstDev = (xs: number[]): number => Math.max(...xs.map((x) => Math.abs(x - 1)))
  return [
    {
      group: 'live',
      name: `first live figure after the first token, median of ${appear.length} (goal ≤ 1,000 ms)`,
      value: median(appear),
      unit: 'ms',
    },
    { group: 'live', name: 'first live figure after the first token, worst', value: Math.max(...appear), unit: 'ms' },
    {
      group: 'live',
      name: `Σ live tokens / Σ time vs the server's rate, median of ${cumulative.length} (goal within 2 %)`,
      value: median(cumulative),
      unit: 'ratio',
      baseline: 1,
      baselineName: "server's predicted_per_second",
    },
    { group: 'live', name: 'Σ live tokens / Σ time vs the server, worst |ratio − 1|', value: worstDev(cumulative), unit: 'ratio' },
    {
      group: 'live',
      name: "median live figure vs the server's rate, median over requests",
      value: median(medians),
      unit: 'ratio',
      baseline: 1,
      baselineName: "server's predicted_per_second",
    },
  ]
}
