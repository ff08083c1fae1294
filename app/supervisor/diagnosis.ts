import type { FailureKind } from '../contract/server-state'

/** Why llama-server failed, as the user reads it (from its log lines or its exit status). */
export interface Diagnosis {
  readonly kind: FailureKind
  readonly reason: string
  readonly hint: string | null
  /** True when restarting the same command cannot help (it would fail the same way). */
  readonly deterministic: boolean
  /** Deterministic only if it happens twice in a row: a failure that a loaded machine can also cause once. */
  readonly retryOnce?: boolean
}
