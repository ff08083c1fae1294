import type { Db } from './history-db'
import { ROLL_UP } from './day-sums'

/** How long requests are kept one by one (then rolled up into their day), and the file's size cap. */
export interface RetentionPolicy {
  readonly keepMonths: number
  readonly maxBytes: number
}

export const DEFAULT_RETENTION: RetentionPolicy = { keepMonths: 12, maxBytes: 256 * 1024 * 1024 }

/** The start of the day `months` months before `nowMs`, local time. */
export function cutoffMs(nowMs: number, months: number): number {
  const d = new Date(nowMs)
  d.setMonth(d.getMonth() - months)
  d.setHours(0, 0, 0, 0)
  return d.getTime()
}

const usedBytes = (db: Db): number => {
  const n = (pragma: string): number => Number(Object.values(db.get(`PRAGMA ${pragma}`) ?? {})[0] ?? 0)
  return (n('page_count') - n('freelist_count')) * n('page_size')
}

/**
 * Rolls requests older than the retention into per-day rows (never dropped: a
 * day keeps its sums), then the oldest days until the file is under its cap.
 * Returns how many requests were rolled up.
 */
export function applyRetention(db: Db, policy: RetentionPolicy, nowMs: number): number {
  let rolled = rollUpBefore(db, cutoffMs(nowMs, policy.keepMonths))
  // One day at a time from the oldest: the cap costs the oldest detail first. Bounded: each pass empties a day.
  for (let pass = 0; pass < 1000 && usedBytes(db) > policy.maxBytes; pass++) {
    const oldest = db.get('SELECT MIN(time) AS t FROM requests') as { t: number | null } | null
    if (oldest?.t === null || oldest?.t === undefined) break
    const next = new Date(oldest.t)
    next.setHours(24, 0, 0, 0)
    rolled += rollUpBefore(db, next.getTime())
  }
  return rolled
}

function rollUpBefore(db: Db, beforeMs: number): number {
  const count = Number((db.get('SELECT COUNT(*) AS n FROM requests WHERE time < ?', [beforeMs]) as { n: number }).n)
  if (count === 0) return 0
  db.exec('BEGIN IMMEDIATE')
  try {
    db.run(ROLL_UP, [beforeMs])
    db.run('DELETE FROM requests WHERE time < ?', [beforeMs])
    db.exec('COMMIT')
  } catch (err) {
    db.exec('ROLLBACK')
    throw err
  }
  return count
}
