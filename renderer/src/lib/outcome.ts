import type { Problem } from '../../../app/contract/problem'

/** What an action answers in a view: a confirmation's text, or a failure's problem (its text is the problem's sentence). */
export type Outcome =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly text: string; readonly problem: Problem }

export const failedOutcome = (problem: Problem): Outcome => ({ ok: false, text: problem.sentence, problem })
