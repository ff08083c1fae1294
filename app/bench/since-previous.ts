import type { BenchResult } from '../contract/bench'

/** A drop smaller than this (or than twice the run-to-run noise) is not called a regression. */
const MIN_DROP = 0.15

const pct = (ratio: number): string => `${ratio >= 1 ? '+' : '−'}${Math.abs(Math.round((ratio - 1) * 100))}%`
const rate = (n: number): string => (n >= 100 ? String(Math.round(n)) : n.toFixed(1))

/**
 * Notes on launches that got slower since their last stored bench (same binary
 * path, arguments and hardware): decode and prompt speed separately, since an
 * engine update can break prefill alone (seed 004: a fork's CUDA-graph change
 * cost ~38% of prompt speed until fixed). A drop must exceed 15% and twice the
 * robust spread of this run's figures.
 */
export function regressionNotes(results: readonly BenchResult[]): string[] {
  const notes: string[] = []
  for (const r of results) {
    const prev = r.previous
    if (!prev) continue
    const parts: string[] = []
    let dropped = false
    for (const [what, now, before, spread] of [
      ['decode', r.median.tokensPerSecond, prev.median.tokensPerSecond, r.tokensPerSecondSpread?.robustCvPct ?? 0],
      ['prompt', r.median.promptTokensPerSecond, prev.median.promptTokensPerSecond, r.promptTokensPerSecondSpread?.robustCvPct ?? 0],
    ] as const) {
      if (now === null || before === null || before <= 0) continue
      const ratio = now / before
      const threshold = Math.max(MIN_DROP, (2 * spread) / 100)
      if (ratio <= 1 - threshold) dropped = true
      parts.push(`${what} ${rate(before)} → ${rate(now)} tok/s (${pct(ratio)})`)
    }
    if (dropped) {
      notes.push(
        `${r.label} is slower than at its last bench of the same launch on this machine (` +
          `${prev.createdAt.slice(0, 16).replace('T', ' ')}): ${parts.join(', ')}. ` +
          `If the engine was updated since, it may have regressed; prompt speed can break alone.`,
      )
    }
  }
  return notes
}
