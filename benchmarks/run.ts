import { resolve } from 'node:path'
// @ts-expect-error: a plain .mjs script without types
import { ensureLlamaServer } from '../scripts/llama-server-build.mjs'
import type { BenchRow } from './bench-row'
import { runCleanups } from './cleanup'
import { formatTable } from './format-table'
import { benchDashboard } from './dashboard.bench'
import { benchDownloads } from './downloads.bench'
import { benchDrafts } from './drafts.bench'
import { benchEndpoint } from './endpoint.bench'
import { benchEngines } from './engines.bench'
import { benchFit } from './fit.bench'
import { benchHistory } from './history.bench'
import { benchIdle } from './idle.bench'
import { benchGpuAsleep } from './gpu-asleep.bench'
import { benchLiveFigures } from './live.bench'
import { benchMetrics } from './metrics.bench'
import { benchMtp } from './mtp.bench'
import { benchSupervisor } from './supervisor.bench'
import { benchChildChannel } from './child-channel.bench'
import { benchSwitch } from './switch.bench'
import { benchSwitchTrace } from './switch-trace.bench'
import { benchSwitchTraceLive } from './switch-trace-live.bench'
import { benchThreads } from './threads.bench'
import { benchTelemetry, benchTelemetryOverhead } from './telemetry.bench'
import { benchWindowsStop } from './windows-stop.bench'
import { benchWindowsScan } from './windows-scan.bench'
import { MODELS } from '../test/helpers/paths'

/** `npm run bench`: every benchmark, one table, each figure next to its same-run baseline. */
async function main(): Promise<void> {
  const bin = (ensureLlamaServer as () => string)()
  const rows: BenchRow[] = []
  const only = process.argv[2]
  const target = resolve(MODELS, 'tiny-target.gguf')
  const benches: [string, () => Promise<BenchRow[]>][] = [
    ['supervisor', () => benchSupervisor(bin, target)],
    ['child-channel', () => benchChildChannel(bin, target)],
    ['switch', () => benchSwitch(bin, MODELS)],
    ['switch-trace', async () => [...benchSwitchTrace(), ...(await benchSwitchTraceLive(bin, MODELS))]],
    ['telemetry', () => benchTelemetry()],
    ['telemetry-overhead', () => benchTelemetryOverhead(bin, target)],
    ['metrics', () => benchMetrics(bin, target)],
    ['live', () => benchLiveFigures(bin, target)],
    ['threads', () => benchThreads(bin, target)],
    ['fit', () => benchFit(bin, MODELS)],
    ['dashboard', () => benchDashboard()],
    ['endpoint', () => benchEndpoint(bin, target)],
    ['windows-stop', () => benchWindowsStop()],
    ['windows-scan', () => benchWindowsScan()],
    // The case "GPU asleep" beside the idle CPU figures (its own file: GPU queries, not CPU time).
    ['idle', async () => [...(await benchIdle(bin, target)), ...(await benchGpuAsleep(bin, target))]],
    ['mtp', () => benchMtp(bin, resolve(MODELS, 'tiny-target-mtp.gguf'))],
    ['drafts', () => benchDrafts(bin, target, resolve(MODELS, 'tiny-draft.gguf'))],
    ['engines', () => benchEngines(bin)],
    ['downloads', () => benchDownloads()],
    ['history', () => benchHistory()],
  ]
  for (const [name, run] of benches) {
    if (only && only !== name) continue
    process.stderr.write(`bench: ${name}…\n`)
    rows.push(...(await run()))
  }
  process.stdout.write(`${formatTable(rows)}\n`)
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`bench: ${signal}, stopping the servers it started\n`)
    void runCleanups().finally(() => process.exit(130))
  })
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`)
  process.exitCode = 1
})
