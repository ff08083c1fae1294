import type { HistoryDay, HistoryProfileTotal, HistoryRequest } from '../../contract/history'
import { EXPORT_FORMATS, saveHistoryExport, type ExportFormat } from '../../history/history-export'
import type { HistoryStore } from '../../history/history-store'
import { historyStore } from '../../core/create-core'
import { SettingsStore } from '../../settings/settings-store'
import { UsageError } from '../cli-error'
import type { CliCommand, CliContext } from '../command'
import { parseOptions } from '../parse-options'
import { HISTORY_HELP } from './history-help'

const BY = ['request', 'day', 'profile'] as const
type By = (typeof BY)[number]
/** Lines a terminal listing of requests shows (the newest); --json and export have every row. */
const TEXT_REQUESTS = 50

/** `--since`: YYYY-MM-DD (local midnight), an ISO time, or Nd (N days before now). */
export function parseSince(text: string, now = Date.now()): number {
  const days = /^(\d+)d$/.exec(text)
  if (days) return now - Number(days[1]) * 86_400_000
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00`).getTime() : Date.parse(text)
  if (!Number.isFinite(ms)) throw new UsageError(`--since takes a date (2026-11-30), a time (2026-11-30T18:00) or Nd (7d), not "${text}".`)
  return ms
}

const n = (v: number | null, digits = 0): string => (v === null ? '-' : v.toFixed(digits))
const pad = (rows: string[][]): string => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')).join('\n') + '\n'
}
const localTime = (ms: number): string => {
  const d = new Date(ms)
  const two = (x: number): string => String(x).padStart(2, '0')
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`
}

function requestLines(rows: readonly HistoryRequest[]): string {
  const shown = rows.slice(-TEXT_REQUESTS)
  const head = ['time', 'profile', 'status', 'prompt', 'cached', 'generated', 'prompt tok/s', 'gen tok/s', 'first token ms', 'ms']
  const body = shown.map((r) => [
    localTime(r.time),
    r.profileId ?? '-',
    String(r.status),
    n(r.promptTokens),
    n(r.cachedTokens),
    n(r.generatedTokens),
    n(r.promptPerSecond, 1),
    n(r.generationPerSecond, 1),
    n(r.ttftMs),
    n(r.durationMs),
  ])
  const more = rows.length > shown.length ? `(the last ${shown.length} of ${rows.length} requests; --json lists all)\n` : ''
  return more + pad([head, ...body])
}

function dayLines(rows: readonly (HistoryDay | (HistoryProfileTotal & { day?: undefined }))[], first: 'day' | 'profile'): string {
  const head = [
    first,
    ...(first === 'day' ? ['profile'] : []),
    'requests',
    'errors',
    'prompt',
    'cached',
    'generated',
    'prompt tok/s',
    'gen tok/s',
  ]
  const body = rows.map((r) => [
    ...(first === 'day' ? [r.day ?? '', r.profileId ?? '-'] : [r.profileId ?? '-']),
    String(r.requests),
    String(r.errors),
    String(r.promptTokens),
    String(r.cachedTokens),
    String(r.generatedTokens),
    n(r.promptPerSecond, 1),
    n(r.generationPerSecond, 1),
  ])
  return pad([head, ...body])
}

const EMPTY = 'No requests in the usage history yet: requests through the endpoint (serve, or the app) are kept here.\n'

async function list(args: readonly string[], io: CliContext, store: HistoryStore): Promise<number> {
  const { values } = parseOptions(args, {
    by: { type: 'string' },
    profile: { type: 'string' },
    since: { type: 'string' },
    json: { type: 'boolean' },
  })
  const by = (values.by ?? 'request') as By
  if (!BY.includes(by)) throw new UsageError(`--by takes request, day or profile, not "${values.by}".`)
  const filter = { sinceMs: values.since === undefined ? null : parseSince(values.since), profileId: values.profile ?? null }
  const rows =
    by === 'request' ? await store.listRequests(filter) : by === 'day' ? await store.listDays(filter) : await store.listProfiles(filter)
  if (values.json) io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`)
  else if (rows.length === 0) io.stdout.write(EMPTY)
  else if (by === 'request') io.stdout.write(requestLines(rows as HistoryRequest[]))
  else io.stdout.write(dayLines(rows as HistoryDay[], by === 'day' ? 'day' : 'profile'))
  return 0
}

async function exportTo(args: readonly string[], io: CliContext, store: HistoryStore): Promise<number> {
  const { values } = parseOptions(args, {
    format: { type: 'string' },
    out: { type: 'string' },
    profile: { type: 'string' },
    since: { type: 'string' },
  })
  const format = values.format as ExportFormat | undefined
  if (format === undefined || !EXPORT_FORMATS.includes(format)) throw new UsageError('history export needs --format csv, json or md.')
  if (values.out === undefined) throw new UsageError('history export needs --out FILE (where to write it).')
  const count = await saveHistoryExport(store, values.out, format, {
    sinceMs: values.since === undefined ? null : parseSince(values.since),
    profileId: values.profile ?? null,
  })
  io.stderr.write(`Wrote ${count} request${count === 1 ? '' : 's'} to ${values.out}.\n`)
  return 0
}

async function run(args: readonly string[], io: CliContext): Promise<number> {
  const store = historyStore(io.home, await SettingsStore.open(io.home), (m) => io.stderr.write(`llama-tray: ${m}\n`))
  try {
    return args[0] === 'export' ? await exportTo(args.slice(1), io, store) : await list(args, io, store)
  } finally {
    await store.close()
  }
}

export const historyCommand: CliCommand = {
  ...HISTORY_HELP,
  run,
}
