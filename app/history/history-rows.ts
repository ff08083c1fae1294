import type { HistoryDay, HistoryRequest, HistorySession } from '../contract/history'
import type { Db } from './history-db'

type Row = Record<string, unknown>

const REQUEST_COLUMNS = {
  time: 'time',
  profileId: 'profile_id',
  profileName: 'profile_name',
  engine: 'engine',
  engineVersion: 'engine_version',
  model: 'model',
  path: 'path',
  status: 'status',
  promptTokens: 'prompt_tokens',
  cachedTokens: 'cached_tokens',
  generatedTokens: 'generated_tokens',
  draftTokens: 'draft_tokens',
  draftAccepted: 'draft_accepted',
  promptPerSecond: 'prompt_per_second',
  generationPerSecond: 'generation_per_second',
  ttftMs: 'ttft_ms',
  durationMs: 'duration_ms',
  energyJ: 'energy_j',
  error: 'error',
} as const satisfies Record<keyof HistoryRequest, string>

const SESSION_COLUMNS = {
  key: 'key',
  kind: 'kind',
  profileId: 'profile_id',
  profileName: 'profile_name',
  engine: 'engine',
  engineVersion: 'engine_version',
  model: 'model',
  driverVersion: 'driver_version',
  launchDigest: 'launch_digest',
  startedAt: 'started_at',
  readyAt: 'ready_at',
  stoppedAt: 'stopped_at',
  ended: 'ended',
  loadMs: 'load_ms',
  placementRetry: 'placement_retry',
  generationPerSecond: 'generation_per_second',
  promptPerSecond: 'prompt_per_second',
} as const satisfies Record<keyof HistorySession, string>

const REQUEST_KEYS = Object.keys(REQUEST_COLUMNS) as (keyof HistoryRequest)[]
const SESSION_KEYS = Object.keys(SESSION_COLUMNS) as (keyof HistorySession)[]

/** The SELECT list that names a request's columns as HistoryRequest's fields. */
export const REQUEST_SELECT = REQUEST_KEYS.map((k) => `${REQUEST_COLUMNS[k]} AS ${k}`).join(', ')
export const SESSION_SELECT = SESSION_KEYS.map((k) => `${SESSION_COLUMNS[k]} AS ${k}`).join(', ')

const finite = (v: number | null): number | null => (v !== null && Number.isFinite(v) ? v : null)

/** Inserts requests (one prepared statement for the batch). */
export function insertRequests(db: Db, rows: readonly HistoryRequest[]): void {
  const sql = `INSERT INTO requests (${REQUEST_KEYS.map((k) => REQUEST_COLUMNS[k]).join(', ')}) VALUES (${REQUEST_KEYS.map(() => '?').join(', ')})`
  const stmt = db.prepare(sql)
  try {
    for (const row of rows)
      stmt.run(REQUEST_KEYS.map((k) => (typeof row[k] === 'number' ? finite(row[k] as number) : (row[k] as string | null))))
  } finally {
    stmt.finalize()
  }
}

/** A session's start or a later change of it: the key, and the fields that changed. */
export type SessionUpdate = Pick<HistorySession, 'key'> & Partial<HistorySession>

/** Writes session starts and changes: a known key gets only the fields given. */
export function upsertSessions(db: Db, updates: readonly SessionUpdate[]): void {
  for (const u of updates) {
    const keys = SESSION_KEYS.filter((k) => u[k] !== undefined)
    const values = keys.map((k) => {
      const v = u[k]
      return typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'number' ? finite(v) : (v as string | null)
    })
    const cols = keys.map((k) => SESSION_COLUMNS[k])
    const set = cols.filter((c) => c !== 'key').map((c) => `${c} = excluded.${c}`)
    const insert = `INSERT INTO sessions (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`
    // A change whose start was never written (a session older than the file) is not invented.
    if (u.startedAt === undefined)
      db.run(
        `UPDATE sessions SET ${cols
          .filter((c) => c !== 'key')
          .map((c) => `${c} = ?`)
          .join(', ')} WHERE key = ?`,
        [...values.slice(1), u.key],
      )
    else db.run(`${insert} ON CONFLICT (key) DO UPDATE SET ${set.length > 0 ? set.join(', ') : 'key = key'}`, values)
  }
}

/** A request as read back (SQLite integers arrive as numbers; placement_retry as 0/1). */
export function requestFromRow(row: Row): HistoryRequest {
  return row as unknown as HistoryRequest
}

export function sessionFromRow(row: Row): HistorySession {
  return { ...(row as unknown as HistorySession), placementRetry: row.placementRetry === 1 }
}

/** The fields of a day, from the sums a query makes (see DAY_SUMS). */
export function dayFromRow(row: Row): HistoryDay {
  const n = (k: string): number => Number(row[k] ?? 0)
  const rate = (tokens: string, ms: string): number | null => (n(ms) > 0 ? (n(tokens) * 1000) / n(ms) : null)
  return {
    day: String(row.day),
    profileId: row.profileId === '' || row.profileId === null ? null : String(row.profileId),
    profileName: (row.profileName as string | null) ?? null,
    requests: n('requests'),
    errors: n('errors'),
    promptTokens: n('promptTokens'),
    cachedTokens: n('cachedTokens'),
    generatedTokens: n('generatedTokens'),
    draftTokens: n('draftTokens'),
    draftAccepted: n('draftAccepted'),
    promptPerSecond: rate('timedPromptTokens', 'promptMs'),
    generationPerSecond: rate('timedGeneratedTokens', 'generationMs'),
    durationMs: n('durationMs'),
    energyJ: row.energyJ === null || row.energyJ === undefined ? null : Number(row.energyJ),
  }
}
