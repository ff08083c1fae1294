import { problem, type Problem } from '../contract/problem'

/** A diagnostics bundle could not be written: the message is one sentence with the cause and the fix. */
export class DiagnosticsError extends Error {
  constructor(
    message: string,
    /** The raw reason behind the sentence (for Details). */
    readonly detail: string | null = null,
  ) {
    super(message)
    this.name = 'DiagnosticsError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('diagnostics', this.message, { details: this.detail })
  }
}
