import { problem as makeProblem, type Problem } from '../../../app/contract/problem'

/** A promise that rejected in the renderer (main unreachable, a bug) as a problem, the raw text behind Details. */
export function rejectionProblem(err: unknown): Problem {
  const text = err instanceof Error ? (err.stack ?? err.message) : String(err)
  return makeProblem('internal', 'Something went wrong in the dashboard: reload it (Ctrl+R), and report it if it repeats', {
    details: text,
  })
}
