import { problem, type Problem } from '../contract/problem'

/** A problem with what the user typed: printed as one line, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UsageError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('input', this.message)
  }
}
