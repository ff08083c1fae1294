import { problem, type Problem } from '../contract/problem'

export type EngineErrorKind =
  | 'offline'
  | 'rate-limited'
  | 'not-found'
  | 'http'
  | 'bad-answer'
  | 'no-asset'
  | 'no-digest'
  | 'download'
  | 'unsafe-archive'
  | 'does-not-run'
  | 'disk-full'
  | 'in-use'
  | 'unknown-engine'
  /** The build did not compute on this GPU (install's GPU check). */
  | 'gpu-check-failed'

/** An engine command that failed for a reason the user can act on; the message is one sentence with the fix. */
export class EngineError extends Error {
  constructor(
    message: string,
    readonly kind: EngineErrorKind,
    /** When a rate limit lifts, if the server said. */
    readonly retryAt: Date | null = null,
    /** The raw reason behind the sentence (for Details). */
    readonly detail: string | null = null,
  ) {
    super(message)
    this.name = 'EngineError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem(this.kind === 'offline' || this.kind === 'rate-limited' ? 'network' : 'engine', this.message, { details: this.detail })
  }
}
