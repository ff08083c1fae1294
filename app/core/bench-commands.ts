import type { BenchProgress } from '../contract/bench'
import type { CommandChannels } from '../contract/commands'
import { benchProfile, compareProfiles } from '../bench/compare'
import { loadReports } from '../bench/report-store'
import { BenchCancelledError } from '../bench/server-control'
import type { LlamaTrayCore } from './llama-tray-core'

type BenchChannels = Pick<CommandChannels, 'bench:run' | 'bench:cancel' | 'bench:history'>

/** The Bench view's commands: one bench at a time, cancellable, the server put back as it was. */
export function benchCommands(core: LlamaTrayCore, home: string, onProgress: (p: BenchProgress) => void): BenchChannels {
  let running: AbortController | null = null
  return {
    'bench:run': async (profileIds, options) => {
      if (running) return { ok: false, error: 'a benchmark is already running' }
      if (profileIds.length === 0) return { ok: false, error: 'choose at least one profile' }
      running = new AbortController()
      const deps = { core, home, signal: running.signal, onProgress }
      try {
        const report = profileIds.length === 1 ? await benchProfile(deps, profileIds[0] as string, options) : await compareProfiles(deps, profileIds, options)
        return { ok: true, value: report }
      } catch (err) {
        if (err instanceof BenchCancelledError) return { ok: false, error: 'cancelled; the server was put back as it was' }
        if (err instanceof RangeError) return { ok: false, error: err.message }
        return { ok: false, error: (err as Error).message }
      } finally {
        running = null
      }
    },
    'bench:cancel': async () => {
      running?.abort()
    },
    'bench:history': async (max) => (await loadReports(home)).slice(0, max).map((s) => s.report),
  }
}
