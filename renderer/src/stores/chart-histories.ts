import type { GenerationHistory } from '../../../app/contract/generation'
import type { Snapshot } from '../../../app/contract/snapshot'
import { SeriesHistory } from '../lib/series-history'

/** 10 minutes at 1 Hz. */
export const HISTORY_POINTS = 600

/**
 * The charts' bounded histories, filled from pushed snapshots. They live
 * outside React state: the charts read them in place after each push.
 */
export const histories = {
  /** generation tok/s */
  tokens: new SeriesHistory(1, HISTORY_POINTS),
  /** VRAM used, free (GiB) */
  vram: new SeriesHistory(2, HISTORY_POINTS),
  /** system CPU %, llama-server CPU % */
  cpu: new SeriesHistory(2, HISTORY_POINTS),
  /** GPU °C, GPU W */
  gpu: new SeriesHistory(2, HISTORY_POINTS),
}

const GiB = 1024

/** The core's past generation rates (generation:history), so a window opened mid-run does not start with an empty chart. */
export function recordGenerationHistory(history: GenerationHistory): void {
  histories.tokens.backfill(history.perSecond.map((p) => ({ timeSec: Math.floor(p.time / 1000), values: [p.tokensPerSecond] })))
}

export function recordSnapshot(s: Snapshot): void {
  const t = Math.floor(s.time / 1000)
  const running = s.server.state === 'ready'
  histories.tokens.add(t, [s.generation?.tokensPerSecond ?? (running ? 0 : null)])
  const dev = s.gpu?.available ? s.gpu.devices[0] : undefined
  const used = dev?.memoryUsedMiB ?? null
  const free = dev?.memoryFreeMiB ?? null
  histories.vram.add(t, [used === null ? null : used / GiB, free === null ? null : free / GiB])
  histories.cpu.add(t, [s.cpu?.systemPct ?? null, s.cpu?.server?.cpuPct ?? null])
  histories.gpu.add(t, [dev?.temperatureC ?? null, dev?.powerW ?? null])
}
