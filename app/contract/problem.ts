import { asSentence } from './wording'

/**
 * The domain a problem comes from: what views group or word it by, never how it is shown.
 * 'input' is what the user typed or pasted, 'internal' a bug (the stack is in the details).
 */
export type ProblemKind =
  'profile' | 'engine' | 'model' | 'server' | 'fit' | 'bench' | 'settings' | 'network' | 'diagnostics' | 'input' | 'busy' | 'internal'

/**
 * What a fix button runs: a command of the contract with its arguments (the same one the CLI names in `cli`).
 * Kept to the few a failure can offer, so a problem never carries an arbitrary command to a view.
 */
export type ProblemFixCommand =
  /** Stores the binary's spelling of the flags it rejects (`llama-tray profiles fix <id>`). */
  | { readonly command: 'profiles:apply-flag-fixes'; readonly profileId: string }
  /** Stops the running server (an engine it uses cannot be removed under it). */
  | { readonly command: 'server:stop' }
  /** Looks for llama-server binaries and models again (the first-run view's step 1). */
  | { readonly command: 'profiles:discover' }
  /**
   * A start failed because a file of the profile is gone: the file dialog picks it, then the profile starts again
   * (`llama-tray profiles set-model <id> <file.gguf>`).
   */
  | { readonly command: 'profiles:choose-file'; readonly profileId: string; readonly role: 'model' | 'draftModel' }
  /**
   * A start failed because a file of the profile is gone and one of the same name was found: the profile points at it,
   * then starts again (`llama-tray profiles set-model <id> <path>`).
   */
  | { readonly command: 'profiles:use-file'; readonly profileId: string; readonly role: 'model' | 'draftModel'; readonly path: string }

/** The one-click way out of a problem: the button's label, what it runs, and the same in a terminal. */
export interface ProblemFix {
  /** The button's text ("Use -lm none", "Stop the server"). */
  readonly label: string
  readonly run: ProblemFixCommand
  /** The CLI's equivalent ("llama-tray profiles fix big"); null when there is none. */
  readonly cli: string | null
}

/**
 * Every expected failure, as every view and the CLI show it: one sentence with the cause and what to do
 * (capital first, full stop last: see wording.ts), a fix when one click can help, and the raw text behind it
 * (a tool's own words, log lines, a stack) for a "Details" toggle or `--verbose`.
 */
export interface Problem {
  readonly kind: ProblemKind
  readonly sentence: string
  readonly fix?: ProblemFix
  readonly details?: string
}

/**
 * A problem from a message in the domains' style ("the model is missing: check the -m path"): the message becomes
 * a sentence; empty details are left out.
 */
export function problem(
  kind: ProblemKind,
  message: string,
  extra: { readonly fix?: ProblemFix | null; readonly details?: string | null } = {},
): Problem {
  const details = extra.details?.trim()
  return {
    kind,
    sentence: asSentence(message),
    ...(extra.fix ? { fix: extra.fix } : {}),
    ...(details ? { details } : {}),
  }
}

/** Whatever can say itself as a Problem: every domain error class of app/ has `toProblem()`. */
export interface ProblemSource {
  toProblem(): Problem
}

export function isProblemSource(value: unknown): value is ProblemSource {
  return typeof value === 'object' && value !== null && typeof (value as { toProblem?: unknown }).toProblem === 'function'
}

/** Whether a value that crossed a boundary (IPC, JSON) is a Problem. */
export function isProblem(value: unknown): value is Problem {
  if (typeof value !== 'object' || value === null) return false
  const p = value as Record<string, unknown>
  return typeof p.kind === 'string' && typeof p.sentence === 'string'
}
