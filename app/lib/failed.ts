import { problem, type Problem, type ProblemFix, type ProblemKind } from '../contract/problem'
import { problemFrom } from './problem-from'

/** A failed Result (the contract's `{ ok: false, error }`) in the domains' style: kind and message, the message made a sentence. */
export function failed(
  kind: ProblemKind,
  message: string,
  extra: { readonly fix?: ProblemFix | null; readonly details?: string | null } = {},
): { readonly ok: false; readonly error: Problem } {
  return { ok: false, error: problem(kind, message, extra) }
}

/** A thrown value as a failed Result (see problemFrom). */
export function failedFrom(err: unknown): { readonly ok: false; readonly error: Problem } {
  return { ok: false, error: problemFrom(err) }
}
