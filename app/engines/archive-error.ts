import { problem, type Problem } from '../contract/problem'

/** An archive that would write outside its folder, break a budget, or holds what a release never does; nothing of it is kept. */
export class UnsafeArchiveError extends Error {
  constructor(
    /** The archive's file name. */
    readonly archive: string,
    readonly entry: string,
    /** Why, as the end of a sentence that starts with the entry: `would unpack past 64 MiB (...)`. */
    readonly why: string,
  ) {
    super(`refused ${archive}: its entry ${JSON.stringify(entry)} ${why}`)
    this.name = 'UnsafeArchiveError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('engine', this.message, { details: `${this.entry}: ${this.why}` })
  }
}

/** An archive that cannot be read (not gzip or tar, cut short, a broken zip); nothing of it is kept. */
export class DamagedArchiveError extends Error {
  constructor(
    readonly archive: string,
    /** The reader's own words, for Details. */
    readonly detail: string,
  ) {
    super(`cannot read ${archive} (${detail})`)
    this.name = 'DamagedArchiveError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('engine', this.message, { details: this.detail })
  }
}
