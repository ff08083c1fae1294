import { join } from 'node:path'
import type { HistoryDay, HistoryOverview, HistoryProfileTotal, HistoryQuery, HistoryRequest, HistorySession } from '../contract/history'
import { HistoryDb, HISTORY_FILE } from './history-db'
import { DAY_SUMS, dayRows, type DayFilter } from './day-sums'
import {
  dayFromRow,
  insertRequests,
  REQUEST_SELECT,
  requestFromRow,
  SESSION_SELECT,
  sessionFromRow,
  upsertSessions,
  type SessionUpdate,
} from './history-rows'
import { applyRetention, DEFAULT_RETENTION, type RetentionPolicy } from './retention'
import { changesOf } from './changes'

/** At most this far behind: a crash (even SIGKILL) loses at most this much of the record. */
export const FLUSH_DELAY_MS = 1000
/** Retention runs at open and then at most this often. */
const RETENTION_EVERY_MS = 60 * 60 * 1000

export interface HistoryStoreOptions {
  readonly retention?: RetentionPolicy
  /** The retention setting, read at each retention pass (it may change while the store is open); overrides retention's months. */
  readonly keepMonths?: () => number
  /** One sentence for the user (a damaged file set aside, a write that failed). */
  readonly notice?: (message: string) => void
  readonly now?: () => number
}

export interface RequestFilter extends DayFilter {
  /** The newest this many (default: all). */
  readonly limit?: number
}

/**
 * The one owner of <home>/history.sqlite in a process: requests and sessions
 * are queued on the request path (an array push) and written together, at most
 * FLUSH_DELAY_MS later, in one transaction; reads flush first, so a process
 * reads its own writes. Other processes (the app and a CLI `serve`) write the
 * same file safely: see HistoryDb.
 */
export class HistoryStore {
  private readonly db: HistoryDb
  private requests: HistoryRequest[] = []
  private sessions = new Map<string, SessionUpdate>()
  private timer: NodeJS.Timeout | null = null
  private flushing: Promise<void> = Promise.resolve()
  private lastRetention = -Infinity
  private readonly now: () => number
  private closed = false

  constructor(
    path: string,
    private readonly options: HistoryStoreOptions = {},
  ) {
    this.db = new HistoryDb(path, options.notice)
    this.now = options.now ?? Date.now
  }

  /** The store of `<home>/history.sqlite`. */
  static at(home: string, options: HistoryStoreOptions = {}): HistoryStore {
    return new HistoryStore(join(home, HISTORY_FILE), options)
  }

  get path(): string {
    return this.db.path
  }

  /** Queues a finished request (the request path: no I/O here). */
  recordRequest(request: HistoryRequest): void {
    if (this.closed) return
    this.requests.push(request)
    this.schedule()
  }

  /** Queues a session's start (with `startedAt`) or a change of it (the same key, the fields that changed). */
  recordSession(update: SessionUpdate): void {
    if (this.closed) return
    const queued = this.sessions.get(update.key)
    this.sessions.set(update.key, queued ? { ...queued, ...update } : update)
    this.schedule()
  }

  private schedule(): void {
    if (this.timer) return
    this.timer = setTimeout(() => void this.flush().catch(() => {}), FLUSH_DELAY_MS)
  }

  /** Writes what is queued; resolves once it is in the file. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const requests = this.requests
    const sessions = [...this.sessions.values()]
    this.requests = []
    this.sessions = new Map()
    const retention = this.now() - this.lastRetention >= RETENTION_EVERY_MS
    if (requests.length === 0 && sessions.length === 0 && !retention) return this.flushing
    if (retention) this.lastRetention = this.now()
    this.flushing = this.flushing
      .catch(() => {})
      .then(() =>
        this.db.use((db) => {
          db.exec('BEGIN IMMEDIATE')
          try {
            insertRequests(db, requests)
            upsertSessions(db, sessions)
            db.exec('COMMIT')
          } catch (err) {
            db.exec('ROLLBACK')
            throw err
          }
          if (retention) applyRetention(db, this.policy(), this.now())
        }),
      )
      .catch((err: unknown) => {
        this.options.notice?.(`Usage history could not be saved: ${err instanceof Error ? err.message : String(err)}.`)
        throw err
      })
    return this.flushing
  }

  private policy(): RetentionPolicy {
    const base = this.options.retention ?? DEFAULT_RETENTION
    return this.options.keepMonths ? { ...base, keepMonths: this.options.keepMonths() } : base
  }

  /** Writes what is queued and closes the file (on exit). */
  async close(): Promise<void> {
    await this.flush().catch(() => {})
    this.closed = true
    this.db.close()
  }

  private async read<T>(fn: Parameters<HistoryDb['use']>[0] extends (db: infer D) => unknown ? (db: D) => T : never): Promise<T> {
    await this.flush().catch(() => {})
    return this.db.use(fn)
  }

  /** Requests one by one, oldest first (rolled-up days have none). */
  listRequests(filter: RequestFilter): Promise<HistoryRequest[]> {
    const { where, params } = requestWhere(filter)
    const limit = filter.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(filter.limit))}`
    return this.read((db) =>
      db
        .all(
          `SELECT * FROM (SELECT ${REQUEST_SELECT}, id FROM requests${where} ORDER BY time DESC, id DESC${limit}) ORDER BY time, id`,
          params,
        )
        .map((r) => {
          const { id: _id, ...rest } = r as Record<string, unknown>
          return requestFromRow(rest)
        }),
    )
  }

  /** Requests summed per local day and profile, oldest first (rolled-up days included). */
  listDays(filter: DayFilter): Promise<HistoryDay[]> {
    const { sql, params } = dayRows(filter)
    return this.read((db) =>
      db
        .all(`SELECT day, profile_id AS profileId, ${DAY_SUMS} FROM (${sql}) GROUP BY day, profile_id ORDER BY day, profile_id`, params)
        .map(dayFromRow),
    )
  }

  /** Requests summed per profile. */
  listProfiles(filter: DayFilter): Promise<HistoryProfileTotal[]> {
    const { sql, params } = dayRows(filter)
    return this.read((db) =>
      db
        .all(
          `SELECT '' AS day, profile_id AS profileId, MIN(day) AS firstDay, MAX(day) AS lastDay, ${DAY_SUMS} ` +
            `FROM (${sql}) GROUP BY profile_id ORDER BY profile_id`,
          params,
        )
        .map((row) => {
          const { day: _day, ...total } = dayFromRow(row)
          return {
            ...total,
            firstTime: Date.parse(`${String(row.firstDay)}T00:00:00`),
            lastTime: Date.parse(`${String(row.lastDay)}T00:00:00`),
          }
        }),
    )
  }

  /** Sessions started since, oldest first. */
  listSessions(filter: DayFilter & { readonly kind?: HistorySession['kind'] }): Promise<HistorySession[]> {
    const { where, params } = whereOf([
      ['started_at >= ?', filter.sinceMs],
      ['profile_id = ?', filter.profileId],
      ['kind = ?', filter.kind ?? null],
    ])
    return this.read((db) => db.all(`SELECT ${SESSION_SELECT} FROM sessions${where} ORDER BY started_at`, params).map(sessionFromRow))
  }

  /** What the History view shows: days, the changes between sessions, bench runs, today's tokens. */
  async overview(query: HistoryQuery): Promise<HistoryOverview> {
    const filter: DayFilter = { sinceMs: query.sinceMs ?? null, profileId: query.profileId ?? null }
    const days = await this.listDays(filter)
    const sessions = await this.listSessions(filter)
    const startOfToday = new Date(this.now())
    startOfToday.setHours(0, 0, 0, 0)
    const today = await this.listDays({ sinceMs: startOfToday.getTime(), profileId: null })
    const sum = (k: 'promptTokens' | 'generatedTokens' | 'requests'): number => today.reduce((s, d) => s + d[k], 0)
    return {
      days,
      changes: changesOf(sessions.filter((s) => s.kind === 'server')),
      benches: sessions.filter((s) => s.kind === 'bench'),
      today: { promptTokens: sum('promptTokens'), generatedTokens: sum('generatedTokens'), requests: sum('requests') },
    }
  }
}

function requestWhere(filter: DayFilter): { where: string; params: (string | number)[] } {
  return whereOf([
    ['time >= ?', filter.sinceMs],
    ['profile_id = ?', filter.profileId],
  ])
}

/** A WHERE clause of the conditions whose value is set (null: no condition). */
function whereOf(conditions: ReadonlyArray<readonly [string, string | number | null]>): { where: string; params: (string | number)[] } {
  const set = conditions.filter((c): c is readonly [string, string | number] => c[1] !== null)
  return { where: set.length > 0 ? ` WHERE ${set.map((c) => c[0]).join(' AND ')}` : '', params: set.map((c) => c[1]) }
}
