import { Transform, type TransformCallback } from 'node:stream'

/** What llama-server's `timings` says about a request (the final response or final stream event carries it). */
export interface PassedTimings {
  readonly promptTokens: number | null
  readonly predictedTokens: number | null
  readonly predictedTokensPerSecond: number | null
}

// Enough of the answer's end to hold its last `timings` object (it comes last, before usage/id or [DONE]).
const TAIL_CHARS = 16 * 1024

/** The `{…}` that starts at `text[start]`, by brace depth (strings respected), or null when it is cut off. */
function objectAt(text: string, start: number): string | null {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{') depth++
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1)
  }
  return null
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)

/** The last complete `"timings": {…}` in a piece of a JSON answer or SSE stream. */
export function lastTimings(text: string): PassedTimings | null {
  let at = text.lastIndexOf('"timings"')
  while (at !== -1) {
    const brace = text.indexOf('{', at)
    const json = brace === -1 ? null : objectAt(text, brace)
    if (json) {
      try {
        const t = JSON.parse(json) as Record<string, unknown>
        return { promptTokens: num(t.prompt_n), predictedTokens: num(t.predicted_n), predictedTokensPerSecond: num(t.predicted_per_second) }
      } catch {
        // not the object we look for: try the one before
      }
    }
    at = at === 0 ? -1 : text.lastIndexOf('"timings"', at - 1)
  }
  return null
}

/**
 * Passes every chunk on as it comes (no buffering, so backpressure is the
 * pipeline's) and notes, on the side, when the first byte and the first SSE
 * event passed and the answer's last `timings`.
 */
export class FiguresTap extends Transform {
  firstByteAt: number | null = null
  firstEventAt: number | null = null
  private tail = ''

  constructor(private readonly sse: boolean) {
    super()
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const now = performance.now()
    if (this.firstByteAt === null) this.firstByteAt = now
    const text = chunk.toString('utf8')
    if (this.sse && this.firstEventAt === null && (this.tail + text).includes('data:')) this.firstEventAt = now
    this.tail = (this.tail + text).slice(-TAIL_CHARS)
    callback(null, chunk)
  }

  timings(): PassedTimings | null {
    return lastTimings(this.tail)
  }
}
