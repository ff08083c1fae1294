import { FitError } from './fit-error'
import { problem, type Problem } from '../contract/problem'

/**
 * A file that is not a usable GGUF model (corrupt, truncated, hostile or absurd
 * header). A FitError, so every caller that reports fit problems reports it too.
 */
export class GgufError extends FitError {
  constructor(
    readonly file: string,
    /** Why, as a phrase without a capital or a period ("duplicate key "general.name""). */
    readonly why: string,
  ) {
    super(`${file} is not a usable GGUF model: ${why}. Re-download it.`)
    this.name = 'GgufError'
  }

  /** What views and the CLI show for it. */
  override toProblem(): Problem {
    return problem('model', this.message, { details: `${this.file}: ${this.why}` })
  }
}
