import type { Result } from '../../../app/contract/commands'
import { api } from '../stores/api'

/** The redacted one-screen summary, for the clipboard. */
export function diagnosticsSummary(): Promise<Result<string>> {
  return api().diagnosticsSummary()
}

/** Main's save dialog, then the redacted zip: the path, or null when the user cancelled. */
export function saveDiagnostics(): Promise<Result<string | null>> {
  return api().diagnosticsSave()
}
