import { Transform, type TransformCallback } from 'node:stream'

/** What llama-server's `timings` says about a request (the final response or final stream event carries it). */
export interface PassedTimings {
  /** Prompt tokens the server processed (`prompt_n`: the cached ones not included). */
  readonly promptTokens: number | null
  /** Prompt tokens taken from the cache (`cache_n`). */
  readonly cachedTokens: number | null
  readonly promptTokensPerSecond: number | null
  readonly predictedTokens: number | null
  readonly predictedTokensPerSecond: number | null
  /** Speculative decoding: tokens drafted and accepted (absent without a draft model). */
  readonly draftTokens: number | null
  readonly draftAccepted: number | null
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
        return {
          promptTokens: num(t.prompt_n),
          cachedTokens: num(t.cache_n),
          promptTokensPerSecond: num(t.prompt_per_second),
          predictedTokens: num(t.predicted_n),
          predictedTokensPerSecond: num(t.predicted_per_second),
          draftTokens: num(t.draft_n),
          draftAccepted: num(t.draft_n_accepted),
        }
      } catch {
        // not the object we look for: try the one before
      }
    }
    at = at === 0 ? -1 : text.lastIndexOf('"timings"', at - 1)
  }
  return null
}

/** The message of the last `"error": {"message": …}` in a piece of an answer (llama-server's and OpenAI's error shape). */
export function lastErrorMessage(text: string): string | null {
  const at = text.lastIndexOf('"error"')
  if (at === -1) return null
  const brace = text.indexOf('{', at)
  const json = brace === -1 ? null : objectAt(text, brace)
  if (!json) return null
  try {
    const message = (JSON.parse(json) as { message?: unknown }).message
    return typeof message === 'string' ? message.slice(0, 500) : null
  } catch {
    return null
  }
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

  /** The error message at the answer's end, when it carries one. */
  errorMessage(): string | null {
    return lastErrorMessage(this.tail)
  }
}
