import { problem, type Problem } from '../contract/problem'

export type ModelsErrorKind = 'bad-repo' | 'not-found' | 'gated' | 'no-gguf' | 'no-match' | 'ambiguous' | 'hub' | 'unsafe-path'

/** A model pull that cannot go on, with one sentence (cause and fix) as its message. */
export class ModelsError extends Error {
  constructor(
    message: string,
    readonly kind: ModelsErrorKind,
    /** What exists instead (quant tags or file names), for a caller that lists them. */
    readonly available: readonly string[] = [],
  ) {
    super(message)
    this.name = 'ModelsError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('model', this.message, { details: this.available.length > 0 ? `Available: ${this.available.join(', ')}` : null })
  }
}
