import type { FailureKind } from '../contract/server-state'

/** Why llama-server failed, as the user reads it (from its log lines or its exit status). */
export interface Diagnosis {
  readonly kind: FailureKind
  readonly reason: string
  readonly hint: string | null
  /** True when restarting the same command cannot help (it would fail the same way). */
  readonly deterministic: boolean
}
