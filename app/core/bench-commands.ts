import type { BenchProgress, BenchReport } from '../contract/bench'
import type { CommandChannels, Result } from '../contract/commands'
import { benchProfile, compareProfiles } from '../bench/compare'
import { formatReportCsv, formatReportMarkdown } from '../bench/format'
import { loadReports } from '../bench/report-store'
import { BenchCancelledError } from '../bench/bench-launch'
import { tuneProfile } from '../bench/tune'
import type { BenchHost } from '../bench/bench-host'
import type { TelemetrySource } from '../telemetry/telemetry-service'
import { failed, failedFrom } from '../lib/failed'

type BenchChannels = Pick<CommandChannels, 'bench:run' | 'bench:cancel' | 'bench:history' | 'bench:tune' | 'bench:export'>

/** The Bench view's commands: one bench or tune at a time, cancellable, the server put back as it was. */
export function benchCommands(
  core: BenchHost,
  home: string,
  telemetry: TelemetrySource | null,
  onProgress: (p: BenchProgress) => void,
): BenchChannels {
  let running: AbortController | null = null
  const exclusive = async (job: (signal: AbortSignal) => Promise<BenchReport>): Promise<Result<BenchReport>> => {
    if (running) return failed('busy', 'a benchmark is already running: wait for it to finish, or cancel it')
    running = new AbortController()
    try {
      return { ok: true, value: await job(running.signal) }
    } catch (err) {
      if (err instanceof BenchCancelledError) return failed('bench', 'cancelled; the server was put back as it was')
      return failedFrom(err)
    } finally {
      running = null
    }
  }
  return {
    'bench:run': async (profileIds, options) => {
      if (profileIds.length === 0) return failed('input', 'no profile was chosen: choose at least one profile to benchmark')
      return exclusive((signal) => {
        const deps = { core, home, signal, onProgress }
        return profileIds.length === 1 ? benchProfile(deps, profileIds[0] as string, options) : compareProfiles(deps, profileIds, options)
      })
    },
    'bench:tune': async (profileId, options) =>
      exclusive((signal) =>
        tuneProfile({ core, home, signal, onProgress, telemetry }, profileId, {
          runs: options.runs,
          tokens: options.tokens,
          saveAs: options.saveAs,
        }),
      ),
    'bench:cancel': async () => {
      running?.abort()
    },
    'bench:history': async (max) => (await loadReports(home)).slice(0, max).map((s) => s.report),
    'bench:export': async (createdAt, format) => {
      const found = (await loadReports(home)).find((s) => s.report.createdAt === createdAt)
      if (!found) return failed('bench', `no stored report from ${createdAt}: run the benchmark again`)
      return { ok: true, value: format === 'markdown' ? `${formatReportMarkdown(found.report)}\n` : formatReportCsv(found.report) }
    },
  }
}
