import { basename } from 'node:path'
import type { BenchResult } from '../contract/bench'
import type { HistoryRequest } from '../contract/history'
import { parseLlamaArgs } from '../fit/llama-args'
import { median } from '../metrics/median'
import { renderArgs } from '../profiles/profile-args'
import type { Profile } from '../profiles/schema'
import type { MeasuredSpeed } from './speed-cost'

/** Where measured rates come from: the usage history's requests of a profile, and the stored bench reports. */
export interface SpeedSources {
  /** A profile's finished requests since a time (the usage history). */
  readonly requests?: (profileId: string, sinceMs: number) => Promise<readonly HistoryRequest[]>
  /** The stored bench results of this machine (reports of the same CPU and GPUs). */
  readonly benchResults?: () => Promise<readonly BenchResult[]>
}

/** Requests a profile must have finished since its last edit for its median to count. */
const MIN_REQUESTS = 3

/** The --n-cpu-moe a profile runs with; null where it is not a count (--cpu-moe, -ot, unreadable arguments). */
function nCpuMoeOf(args: readonly string[]): number | null {
  try {
    const { settings } = parseLlamaArgs(args)
    return settings.cpuMoe || settings.overrideTensors.length > 0 ? null : settings.nCpuMoe
  } catch {
    return null
  }
}

/**
 * Generation rates measured on this machine for the running profile's launch at each --n-cpu-moe: the median of each
 * stored profile with the same binary, model and draft (its requests since its last edit, so they ran its settings
 * now), and the bench results of the same launch on the same hardware. What slowdownEstimate fits.
 */
export async function measuredSpeeds(running: Profile, profiles: readonly Profile[], sources: SpeedSources): Promise<MeasuredSpeed[]> {
  const out: MeasuredSpeed[] = []
  const same = (p: Profile): boolean => p.binary === running.binary && p.model === running.model && p.draftModel === running.draftModel
  if (sources.requests && running.model !== '') {
    for (const p of profiles.filter(same)) {
      const n = nCpuMoeOf(renderArgs(p))
      if (n === null) continue
      const rates = (await sources.requests(p.id, Date.parse(p.updatedAt)).catch(() => []))
        .filter((r) => r.error === null && r.generationPerSecond !== null && r.generationPerSecond > 0)
        .map((r) => r.generationPerSecond as number)
      if (rates.length >= MIN_REQUESTS) out.push({ nCpuMoe: n, tokensPerSecond: median(rates) as number })
    }
  }
  if (sources.benchResults && running.model !== '') {
    const model = basename(running.model)
    const draft = running.draftModel ? basename(running.draftModel) : null
    for (const r of await sources.benchResults().catch(() => [])) {
      const tps = r.median.tokensPerSecond
      if (r.exe !== running.binary || r.model !== model || r.draftModel !== draft || r.nCpuMoe === null || tps === null || tps <= 0)
        continue
      out.push({ nCpuMoe: r.nCpuMoe, tokensPerSecond: tps })
    }
  }
  return out
}
