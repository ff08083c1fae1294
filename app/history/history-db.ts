import { existsSync, renameSync, statSync } from 'node:fs'
import { rmdir } from 'node:fs/promises'
import sqlite from 'node-sqlite3-wasm'
import { withFileLock } from '../lib/json-store/file-lock'
import { HISTORY_MIGRATIONS, HISTORY_SCHEMA_VERSION } from './history-schema'

/** The database connection the history's queries and writes use (node-sqlite3-wasm's, synchronous). */
export type Db = InstanceType<typeof sqlite.Database>

export const HISTORY_FILE = 'history.sqlite'

/**
 * The history database of one home, opened once per process: every read and
 * write runs inside `use`, which holds the cross-process lock.
 *
 * Why a lock of our own: node-sqlite3-wasm's file system layer locks the file
 * with one folder (`<file>.lock`, made with mkdir) for every SQLite lock
 * level, so readers and writers exclude each other and a process killed inside
 * a transaction leaves that folder behind. Every access here first takes
 * `<file>-owner.lock` (app/lib/json-store/'s lock: a killed holder's lock is
 * taken over), so a `<file>.lock` found while holding it is a dead process's,
 * and is removed; SQLite then rolls back the hot journal it left. The journal
 * is SQLite's rollback journal (DELETE mode): WAL needs shared memory, which
 * this build's file system layer does not offer.
 */
export class HistoryDb {
  private db: Db | null = null
  /** The inode of the file `db` has open: another process may have set that file aside since. */
  private openedIno: number | null = null

  constructor(
    /** `<home>/history.sqlite`. */
    readonly path: string,
    /** Says that a damaged file was set aside (one sentence for the user). */
    private readonly notice: (message: string) => void = () => {},
  ) {}

  private get ownerLock(): string {
    return `${this.path}-owner`
  }

  /** Runs `fn` with the open database, holding the lock across processes. */
  use<T>(fn: (db: Db) => T): Promise<T> {
    return withFileLock(this.ownerLock, async () => {
      await rmdir(`${this.path}.lock`).catch(() => {})
      const db = this.open()
      try {
        return fn(db)
      } catch (err) {
        if (!isDamage(err)) throw err
        this.setAside()
        return fn(this.open())
      }
    })
  }

  /** Closes the connection (the next `use` opens it again). */
  close(): void {
    if (this.db?.isOpen) this.db.close()
    this.db = null
  }

  private open(): Db {
    if (this.db && this.openedIno === inodeOf(this.path)) return this.db
    this.close()
    let db: Db
    try {
      db = this.connect()
    } catch (err) {
      if (!isDamage(err)) throw err
      this.setAside()
      db = this.connect()
    }
    this.db = db
    this.openedIno = inodeOf(this.path)
    return db
  }

  private connect(): Db {
    const db = new sqlite.Database(this.path)
    try {
      // A file that is not a database fails here, at its first read.
      const check = db.get('PRAGMA quick_check') as { quick_check?: unknown } | null
      if (check?.quick_check !== 'ok') throw new Error(`database disk image is malformed (${String(check?.quick_check)})`)
      migrate(db)
      return db
    } catch (err) {
      db.close()
      throw err
    }
  }

  /** Moves a damaged file (and its journal) aside as `history.sqlite.damaged-<time>` and starts a fresh one. */
  private setAside(): void {
    this.close()
    const aside = `${this.path}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`
    // Synchronous, inside the lock: nothing may open the file between the failed check and the move.
    renameIfThere(this.path, aside)
    renameIfThere(`${this.path}-journal`, `${aside}-journal`)
    this.notice('The usage history file was damaged: it was set aside and a new one started.')
  }
}

function inodeOf(path: string): number | null {
  return statSync(path, { throwIfNoEntry: false })?.ino ?? null
}

function renameIfThere(from: string, to: string): void {
  if (existsSync(from)) renameSync(from, to)
}

const DAMAGE = /malformed|not a database|file is encrypted|SQLITE_CORRUPT|SQLITE_NOTADB|disk image/i

/** Whether SQLite's error says the file is damaged (rather than busy, full or unreadable). */
export function isDamage(err: unknown): boolean {
  return DAMAGE.test(err instanceof Error ? err.message : String(err))
}

function migrate(db: Db): void {
  const version = Number((db.get('PRAGMA user_version') as { user_version: number }).user_version)
  if (version >= HISTORY_SCHEMA_VERSION) return
  db.exec('BEGIN IMMEDIATE')
  try {
    for (let i = version; i < HISTORY_MIGRATIONS.length; i++) db.exec(HISTORY_MIGRATIONS[i]!)
    db.exec(`PRAGMA user_version = ${HISTORY_SCHEMA_VERSION}`)
    db.exec('COMMIT')
  } catch (err) {
    db.exec('ROLLBACK')
    throw err
  }
}
