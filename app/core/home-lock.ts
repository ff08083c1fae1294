import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { problem, type Problem } from '../contract/problem'
import { withFileLock } from '../lib/json-store/file-lock'
import { readRunRecord, writeRunRecord } from '../supervisor/pid-file'
import { isAlive, readProcessIdentity, sameProcess, type ProcessIdentity } from '../supervisor/process-identity'
import { removeStaleServeRecords } from './serve-record'

/** The processes that supervise llama-servers for a home: one at a time. */
export type HomeLockHolderKind = 'app' | 'serve' | 'run'

/** <home>/run/instance.json: who holds the home now. */
export interface HomeLockRecord {
  readonly pid: number
  readonly kind: HomeLockHolderKind
  /** Where clients reach it (serve's and the app's endpoint, run's llama-server); null until it listens. */
  readonly port: number | null
  /** The holder's name and start time: a pid reused by another process after a kill -9 is not the holder. */
  readonly identity: ProcessIdentity | null
  readonly since: number
}

/** What a holder does with the home it holds. */
export interface HeldHome {
  /** Names the port clients reach the holder at, for the sentence a second instance gets. */
  setPort(port: number | null): Promise<void>
  release(): Promise<void>
}

const WHO: Record<HomeLockHolderKind, string> = { app: 'the Llama Tray app', serve: 'llama-tray serve', run: 'llama-tray run' }
const FIX: Record<HomeLockHolderKind, string> = {
  app: 'quit it first, or use its endpoint.',
  serve: 'stop it first, or switch through it with profiles use.',
  run: 'stop it first (Ctrl+C where it runs).',
}

/** Who holds a home, in words: "llama-tray run (pid 4242, port 8080)". */
export function holderName(holder: Pick<HomeLockRecord, 'pid' | 'kind' | 'port'>): string {
  return `${WHO[holder.kind]} (pid ${holder.pid}${holder.port === null ? '' : `, port ${holder.port}`})`
}

/** The one sentence a second instance gets: who holds the home, its pid and port, and what to do. */
export function homeInUseSentence(holder: Pick<HomeLockRecord, 'pid' | 'kind' | 'port'>): string {
  return `This home is in use by ${holderName(holder)}: ${FIX[holder.kind]}`
}

/** A second app, serve or run on a home that one already runs on. */
export class HomeInUseError extends Error {
  constructor(readonly holder: HomeLockRecord) {
    super(homeInUseSentence(holder))
    this.name = 'HomeInUseError'
  }

  toProblem(): Problem {
    return problem('busy', this.message)
  }
}

const fileOf = (home: string): string => join(home, 'run', 'instance.json')

/** The lock files this process holds (a second acquisition in the same process is refused like another's). */
const heldHere = new Set<string>()

/** The live holder named in the file, or null when there is none: no file, a half-written one, a dead or reused pid. */
async function liveHolder(file: string): Promise<HomeLockRecord | null> {
  let record: HomeLockRecord
  try {
    record = (await readRunRecord(file)) as HomeLockRecord
  } catch {
    return null
  }
  if (!Number.isInteger(record.pid) || record.pid <= 0) return null
  if (record.pid === process.pid) return heldHere.has(file) ? record : null
  if (!isAlive(record.pid)) return null
  if (record.identity) {
    const now = await readProcessIdentity(record.pid)
    if (now && !sameProcess(record.identity, now)) return null
  }
  return record
}

/**
 * One app, `serve` or `run` per home: each would start its own llama-server for the same profile, and `profiles use`
 * would switch only one. The lock is <home>/run/instance.json naming a live process; every change of it happens under
 * the file lock of the stores (json-store/file-lock.ts), so two starting at once cannot both win. A holder that was
 * killed leaves a file whose pid is gone (or reused by another program): the next start takes it over.
 */
export class HomeLock implements HeldHome {
  private released = false

  private constructor(
    private readonly file: string,
    private record: HomeLockRecord,
  ) {}

  /** Who holds the home now (a live process), else null: for a command that only reads it (`profiles use`). */
  static holder(home: string): Promise<HomeLockRecord | null> {
    return liveHolder(fileOf(home))
  }

  /** Takes the home's lock, or throws HomeInUseError naming the holder. Stale serve records of dead processes go first. */
  static async acquire(home: string, kind: HomeLockHolderKind): Promise<HomeLock> {
    const file = fileOf(home)
    await mkdir(join(home, 'run'), { recursive: true })
    await removeStaleServeRecords(home)
    return withFileLock(
      file,
      async () => {
        const holder = await liveHolder(file)
        if (holder) throw new HomeInUseError(holder)
        const record: HomeLockRecord = {
          pid: process.pid,
          kind,
          port: null,
          identity: await readProcessIdentity(process.pid),
          since: Date.now(),
        }
        await writeRunRecord(file, record)
        heldHere.add(file)
        return new HomeLock(file, record)
      },
      { waitMs: 15_000 },
    )
  }

  /** Names the port clients reach the holder at, for the sentence a second instance gets. */
  async setPort(port: number | null): Promise<void> {
    if (this.released || port === this.record.port) return
    this.record = { ...this.record, port }
    await withFileLock(this.file, async () => {
      if (!this.released) await writeRunRecord(this.file, this.record)
    }).catch(() => {}) // the sentence then lacks the port: not worth failing the holder for
  }

  /** Gives the home back (the file goes only while it still names this process). */
  async release(): Promise<void> {
    if (this.released) return
    this.released = true
    heldHere.delete(this.file)
    await withFileLock(this.file, async () => {
      const now = await readRunRecord(this.file).catch(() => null)
      if ((now as HomeLockRecord | null)?.pid === process.pid) await rm(this.file, { force: true })
    }).catch(() => {}) // a file left behind names a dead pid: the next start takes it over
  }
}
