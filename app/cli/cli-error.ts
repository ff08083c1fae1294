import { problem, type Problem } from '../contract/problem'

/** A problem with what the user typed: printed as one line (its fix's command and, with --verbose, its details), exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The fix and details of the domain's problem it stands for (a refused profile's `llama-tray profiles fix`). */
    private readonly from: Pick<Problem, 'fix' | 'details'> = {},
  ) {
    super(message)
    this.name = 'UsageError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('input', this.message, { fix: this.from.fix ?? null, details: this.from.details ?? null })
  }
}
