/** A generation rate measured with a number of expert layers on the CPU (--n-cpu-moe). */
export interface MeasuredSpeed {
  readonly nCpuMoe: number
  readonly tokensPerSecond: number
}

/**
 * How much slower generation would be with `to` expert layers on the CPU than with `from`, from rates measured on this
 * machine: each layer moved to the CPU adds about the same time per token (its active experts are read from RAM there),
 * so the time per token is fitted as a straight line over --n-cpu-moe (least squares over the measured settings).
 * Null when it is not known: fewer than two settings measured, `to` further from them than their own spread, or a line
 * that does not slow down with more layers on the CPU (noise, or a GPU that spilled into system RAM) — never a guess.
 */
export function slowdownEstimate(points: readonly MeasuredSpeed[], from: number, to: number): number | null {
  const usable = points.filter((p) => Number.isFinite(p.tokensPerSecond) && p.tokensPerSecond > 0)
  const settings = [...new Set(usable.map((p) => p.nCpuMoe))]
  if (settings.length < 2 || to <= from) return null
  const lo = Math.min(...settings)
  const hi = Math.max(...settings)
  const spread = hi - lo
  if (from < lo - spread || to > hi + spread) return null
  const xs = usable.map((p) => p.nCpuMoe)
  const ys = usable.map((p) => 1 / p.tokensPerSecond)
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length
  const my = ys.reduce((a, b) => a + b, 0) / ys.length
  let sxy = 0
  let sxx = 0
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my)
    sxx += (xs[i]! - mx) ** 2
  }
  const slope = sxy / sxx
  if (!(slope > 0)) return null
  const secondsPerToken = (n: number): number => my + slope * (n - mx)
  if (secondsPerToken(from) <= 0) return null
  return 1 / secondsPerToken(from) - 1 / secondsPerToken(to)
}

/** The fix's cost in words: "about 3 tok/s slower (estimate)"; null when unknown or under half a token a second. */
export function slowdownWords(slowdown: number | null): string | null {
  if (slowdown === null || slowdown < 0.5) return null
  const n = slowdown >= 10 ? Math.round(slowdown) : Math.round(slowdown * 10) / 10
  return `about ${n} tok/s slower (estimate)`
}
