import { problem, type Problem } from '../contract/problem'

/** Bad input to the estimator (missing or unreadable GGUF, unknown architecture, bad option): one clear line, never a stack. */
export class FitError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FitError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('fit', this.message)
  }
}
