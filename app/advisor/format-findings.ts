import { asSentence } from '../contract/wording'
import { warningText, type WarningFix } from '../contract/warnings'
import type { LintFinding } from './lint-input'

export function describeFix(fix: WarningFix): string {
  const parts = [
    fix.removeArgs.length > 0 ? `remove ${fix.removeArgs.join(' ')}` : null,
    fix.addArgs.length > 0 ? `add ${fix.addArgs.join(' ')}` : null,
  ].filter(Boolean)
  return `${fix.label}${parts.length > 0 ? ` (${parts.join('; ')})` : ''}`
}

/** The findings as text: one block per finding, then the notes about what could not be checked. */
export function formatFindings(findings: readonly LintFinding[], notes: readonly string[]): string {
  const lines: string[] = []
  if (findings.length === 0) lines.push('No findings.')
  for (const f of findings) {
    lines.push(`${f.level.padEnd(5)}  ${f.id}`, `       ${warningText(f)}`)
    if (f.fix) lines.push(`       fix: ${describeFix(f.fix)}`)
  }
  for (const n of notes) lines.push(`Note: ${asSentence(n)}`)
  const errors = findings.filter((f) => f.level === 'error').length
  const warns = findings.filter((f) => f.level === 'warn').length
  if (findings.length > 0) lines.push(`${errors} error(s), ${warns} warning(s), ${findings.length - errors - warns} note(s)`)
  return lines.join('\n')
}
