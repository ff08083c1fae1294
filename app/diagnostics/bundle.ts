import { basename } from 'node:path'
import { collectDiagnostics, osUserNames, type DiagnosticsReport, type DiagnosticsSources } from './collect'
import { DiagnosticsError } from './diagnostics-error'
import { knownSecrets } from './known-secrets'
import { Redactor } from './redact'
import { formatSummary } from './summary'
import { writeTextZip } from './write-zip'

/** A bundle ready to hand over: every text in it has been through the Redactor. */
export interface DiagnosticsBundle {
  /** The report with every string redacted. */
  readonly report: DiagnosticsReport
  /** The one-screen text (summary.txt). */
  readonly summary: string
  /** The whole report as JSON (diagnostics.json, and `diagnostics --json`). */
  readonly json: string
  /** The end of llama-server's log (llama-server.log). */
  readonly log: string
  /** The end of each pinned profile's server log, under its own file name (llama-server-<id>.log). */
  readonly pinnedLogs: readonly { readonly name: string; readonly text: string }[]
}

/** Every string in a JSON-like value through the redactor (keys too: an env name is no secret, but a path may be). */
function redactDeep<T>(value: T, redactor: Redactor): T {
  if (typeof value === 'string') return redactor.text(value) as T
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, redactor)) as T
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redactor.text(k), redactDeep(v, redactor)])) as T
  }
  return value
}

/**
 * Gathers and redacts a diagnostics bundle. Every string of the report is
 * redacted before the summary wraps and clips it (a clipped key would no
 * longer match); the finished JSON and log, and each summary line, once more.
 */
export async function buildDiagnostics(sources: DiagnosticsSources): Promise<DiagnosticsBundle> {
  const { report, profiles } = await collectDiagnostics(sources)
  const redactor = new Redactor({ secrets: await knownSecrets(profiles, sources.env), userNames: osUserNames(sources.env) })
  const safe = redactDeep(report, redactor)
  return {
    report: safe,
    summary: formatSummary(safe, (line) => redactor.text(line)),
    json: `${redactor.text(JSON.stringify(safe, null, 2))}\n`,
    log: logText(safe.log.lines, redactor),
    pinnedLogs: safe.pinned.map((p) => ({ name: basename(p.log.file), text: logText(p.log.lines, redactor) })),
  }
}

function logText(lines: readonly string[], redactor: Redactor): string {
  return lines.length > 0 ? `${redactor.text(lines.join('\n'))}\n` : ''
}

/** The zip's entries, in the order a reader opens them; then each pinned profile's log (bundleEntries). */
export const BUNDLE_ENTRIES = ['summary.txt', 'diagnostics.json', 'llama-server.log'] as const

/** The zip's entries for this bundle: the fixed ones, then llama-server-<id>.log of each pinned profile. */
export function bundleEntries(bundle: Pick<DiagnosticsBundle, 'pinnedLogs'>): string[] {
  return [...BUNDLE_ENTRIES, ...bundle.pinnedLogs.map((l) => l.name)]
}

const WHY: Readonly<Record<string, string>> = {
  ENOENT: 'its folder does not exist',
  EACCES: 'that folder is not writable',
  EPERM: 'that folder is not writable',
  EROFS: 'that disk is read-only',
  ENOSPC: 'the disk is full',
  EISDIR: 'that is a folder',
}

/** Writes the bundle as a zip; a path that cannot be written is a DiagnosticsError that says what to do. */
export async function saveDiagnosticsZip(path: string, bundle: DiagnosticsBundle): Promise<void> {
  try {
    await writeTextZip(path, [
      { name: 'summary.txt', text: bundle.summary },
      { name: 'diagnostics.json', text: bundle.json },
      { name: 'llama-server.log', text: bundle.log },
      ...bundle.pinnedLogs,
    ])
  } catch (err) {
    const why = WHY[(err as NodeJS.ErrnoException).code ?? ''] ?? 'the write failed'
    const sentence = `Cannot save the diagnostics to ${path} because ${why}: choose another file or folder.`
    throw new DiagnosticsError(sentence, (err as Error).message)
  }
}
