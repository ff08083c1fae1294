/**
 * When a rate limit lifts, from the answer's headers: `retry-after` (seconds
 * or an HTTP date), else `x-ratelimit-reset` (GitHub: epoch seconds; others:
 * seconds from now when the number is small). Null when neither says.
 */
export function rateLimitResetAt(headers: Readonly<Record<string, string | string[] | undefined>>, now: Date = new Date()): Date | null {
  const retryAfter = one(headers['retry-after'])
  if (retryAfter !== undefined) {
    const secs = Number(retryAfter)
    if (Number.isFinite(secs) && secs >= 0) return new Date(now.getTime() + secs * 1000)
    const at = Date.parse(retryAfter)
    if (Number.isFinite(at)) return new Date(at)
  }
  const reset = one(headers['x-ratelimit-reset'])
  if (reset !== undefined) {
    const n = Number(reset)
    if (Number.isFinite(n) && n >= 0) {
      // An epoch time is past 2001 (1e9 s); a smaller number is a delay.
      return n > 1e9 ? new Date(n * 1000) : new Date(now.getTime() + n * 1000)
    }
  }
  return null
}

/** Whether an answer is a rate limit: 429, or a 403 whose remaining quota is 0 (GitHub). */
export function isRateLimited(status: number, headers: Readonly<Record<string, string | string[] | undefined>>): boolean {
  if (status === 429) return true
  return status === 403 && one(headers['x-ratelimit-remaining']) === '0'
}

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v
}
