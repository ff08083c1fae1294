import { problem, type Problem } from '../../contract/problem'

/** Why a download failed; `resumable` says whether the `.part` file was kept for the next try. */
export type DownloadErrorKind =
  | 'offline' // DNS failed: no network, or the host name is wrong
  | 'network' // refused, reset before any byte, TLS
  | 'cut' // the connection ended midway; the part is kept
  | 'timeout' // no byte for too long; the part is kept
  | 'http' // an error status
  | 'rate-limited' // 429 (or 403 with the rate limit spent)
  | 'digest-mismatch'
  | 'size-mismatch' // the server announces another size than the one listed; nothing was written
  | 'too-large' // the server sent more than the listed size; stopped there, nothing kept
  | 'disk-full'
  | 'aborted'
  | 'bad-url'
  | 'too-many-redirects'
  | 'io'

export interface DownloadErrorInit {
  readonly kind: DownloadErrorKind
  readonly url: string
  readonly resumable?: boolean
  readonly status?: number
  /** When a rate limit lifts, if the server said. */
  readonly retryAt?: Date
  readonly expectedSha256?: string
  readonly actualSha256?: string
  readonly detail?: string
}

/** A failed download, with one sentence (cause and fix) as its message. */
export class DownloadError extends Error {
  readonly kind: DownloadErrorKind
  readonly url: string
  readonly resumable: boolean
  readonly status: number | undefined
  readonly retryAt: Date | undefined
  readonly expectedSha256: string | undefined
  readonly actualSha256: string | undefined
  readonly detail: string | undefined

  constructor(message: string, init: DownloadErrorInit) {
    super(message)
    this.name = 'DownloadError'
    this.kind = init.kind
    this.url = init.url
    this.resumable = init.resumable ?? false
    this.status = init.status
    this.retryAt = init.retryAt
    this.expectedSha256 = init.expectedSha256
    this.actualSha256 = init.actualSha256
    this.detail = init.detail
  }

  /** What views and the CLI show for it: the sentence, and the address with the status or the system's words behind it. */
  toProblem(): Problem {
    const why = [this.status === undefined ? null : `HTTP ${this.status}`, this.detail ?? null].filter((x) => x !== null).join(': ')
    return problem('network', this.message, { details: [this.url, why].filter((x) => x !== '').join('\n') })
  }
}

export function isDownloadError(err: unknown): err is DownloadError {
  return err instanceof DownloadError
}
