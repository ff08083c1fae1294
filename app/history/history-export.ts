import { writeFile } from 'node:fs/promises'
import type { HistoryRequest } from '../contract/history'
import type { HistoryStore } from './history-store'

export type ExportFormat = 'csv' | 'json' | 'md'
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'json', 'md']

/** The columns of an export, in order: every field of a request, under its contract name. */
export const EXPORT_COLUMNS: readonly (keyof HistoryRequest)[] = [
  'time',
  'profileId',
  'profileName',
  'engine',
  'engineVersion',
  'model',
  'path',
  'status',
  'promptTokens',
  'cachedTokens',
  'generatedTokens',
  'draftTokens',
  'draftAccepted',
  'promptPerSecond',
  'generationPerSecond',
  'ttftMs',
  'durationMs',
  'energyJ',
  'error',
]

const cell = (r: HistoryRequest, k: keyof HistoryRequest): string => {
  const v = r[k]
  if (v === null) return ''
  if (k === 'time') return new Date(v as number).toISOString()
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(2)
  return String(v)
}

// RFC 4180: quote a field with a comma, quote or line break; double its quotes. A leading =+-@ is kept as text
// by a quote-prefixed apostrophe, so that a spreadsheet never runs a path or an error message as a formula.
const csvField = (s: string): string => {
  const safe = /^[=+\-@]/.test(s) && !/^-?\d/.test(s) ? `'${s}` : s
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}
const mdField = (s: string): string => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')

/** The requests as a file in `format`: CSV with a header row, a JSON array, or a Markdown table. */
export function exportRequests(rows: readonly HistoryRequest[], format: ExportFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(rows, null, 2)}\n`
    case 'csv':
      return [EXPORT_COLUMNS.join(','), ...rows.map((r) => EXPORT_COLUMNS.map((k) => csvField(cell(r, k))).join(','))].join('\r\n') + '\r\n'
    case 'md':
      return (
        [
          `| ${EXPORT_COLUMNS.join(' | ')} |`,
          `|${EXPORT_COLUMNS.map(() => '---').join('|')}|`,
          ...rows.map((r) => `| ${EXPORT_COLUMNS.map((k) => mdField(cell(r, k))).join(' | ')} |`),
        ].join('\n') + '\n'
      )
  }
}

/** Writes every request since `sinceMs` to `path` (the user's choice: the CLI's --out, the dashboard's save dialog); how many. */
export async function saveHistoryExport(
  store: HistoryStore,
  path: string,
  format: ExportFormat,
  filter: { readonly sinceMs: number | null; readonly profileId: string | null } = { sinceMs: null, profileId: null },
): Promise<number> {
  const rows = await store.listRequests(filter)
  await writeFile(path, exportRequests(rows, format))
  return rows.length
}
