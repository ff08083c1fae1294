import { isProblemSource, problem, type Problem } from '../contract/problem'
import { environmentProblem } from './environment-problem'

/** A ZodError without importing zod here: its issues, each with a path and a message. */
interface IssueList extends Error {
  readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[]
}
const isIssueList = (err: unknown): err is IssueList =>
  err instanceof Error && err.name === 'ZodError' && Array.isArray((err as { issues?: unknown }).issues)

/**
 * Any thrown value as a Problem: a domain error says itself (`toProblem()`), a schema refusal names the fields,
 * anything else is a bug: "Something went wrong: …" with the stack behind Details.
 */
export function problemFrom(err: unknown): Problem {
  if (isProblemSource(err)) return err.toProblem()
  if (isIssueList(err)) {
    const fields = err.issues.map((i) => `${i.path.map(String).join('.') || 'value'}: ${i.message}`).join('; ')
    return problem('input', `Some values were refused (${fields}): correct them and try again`, { details: err.message })
  }
  const environment = environmentProblem(err)
  if (environment) return environment
  const message = err instanceof Error ? err.message : String(err)
  const stack = err instanceof Error ? (err.stack ?? message) : message
  return problem('internal', `Something went wrong: ${message.replace(/[.\s]+$/, '')}. Copy the details into a bug report`, {
    details: stack,
  })
}
