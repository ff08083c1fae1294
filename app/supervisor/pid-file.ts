import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../lib/atomic-write'
import { isAlive, readProcessIdentity, sameProcess, type ProcessIdentity } from './process-identity'

/**
 * One file per supervisor process under <home>/run/, naming the llama-server it
 * owns. If our own process dies without stopping the server (a crash, kill -9),
 * the next start finds the file, checks that the pid is still that same
 * llama-server (name and start time, since pids are reused) and stops it.
 */
export interface PidRecord {
  readonly pid: number
  readonly ownerPid: number
  readonly exe: string
  readonly port: number | null
  readonly identity: ProcessIdentity | null
  readonly startedAt: number
  /** The profile the server runs (absent in files written before pinned profiles, and for a bare command line). */
  readonly profileId?: string | null
}

/** A pid file's name: the owner's pid, then the server's name within that owner when it is not the main one. */
const PID_FILE = /^llama-server\.(\d+)(?:\.([a-z0-9._-]+))?\.json$/

export class PidFiles {
  constructor(
    private readonly dir: string,
    /** How a pid's identity is read now (tests inject another platform's). */
    private readonly readIdentity: (pid: number) => Promise<ProcessIdentity | null> = (pid) => readProcessIdentity(pid),
    private readonly alive: (pid: number) => boolean = isAlive,
    /**
     * Which of its owner's servers this is (one process may supervise several: the active profile and the pinned ones);
     * null for the main one.
     */
    private readonly serverName: string | null = null,
  ) {}

  private fileFor(ownerPid: number): string {
    return join(this.dir, this.serverName === null ? `llama-server.${ownerPid}.json` : `llama-server.${ownerPid}.${this.serverName}.json`)
  }

  async write(record: PidRecord): Promise<void> {
    await mkdir(this.dir, { recursive: true })
    // Atomic, with the rename retried while an antivirus or indexer holds the file (Windows).
    await writeFileAtomic(this.fileFor(record.ownerPid), JSON.stringify(record))
  }

  async remove(ownerPid = process.pid): Promise<void> {
    await rm(this.fileFor(ownerPid), { force: true })
  }

  /**
   * Finds servers left behind by supervisors that are no longer running.
   * Returns the ones still alive and verified to be the recorded process;
   * stale files (dead or reused pids) are deleted.
   */
  async findOrphans(): Promise<PidRecord[]> {
    let names: string[]
    try {
      names = await readdir(this.dir)
    } catch {
      return []
    }
    const orphans: PidRecord[] = []
    for (const name of names) {
      const m = PID_FILE.exec(name)
      if (!m) continue
      const ownerPid = Number(m[1])
      if (ownerPid !== process.pid && this.alive(ownerPid)) continue // another live supervisor owns it
      if (ownerPid === process.pid && (m[2] ?? null) !== this.serverName) continue // another supervisor of this process owns it
      const file = join(this.dir, name)
      let record: PidRecord
      try {
        record = JSON.parse(await readFile(file, 'utf8')) as PidRecord
      } catch {
        await rm(file, { force: true })
        continue
      }
      const now = Number.isInteger(record.pid) ? await this.readIdentity(record.pid) : null
      if (now && record.identity && sameProcess(record.identity, now)) orphans.push(record)
      else await rm(file, { force: true })
    }
    return orphans
  }
}

/** The profiles whose servers run now under a live supervisor (any process) of this home's run/ folder. */
export async function runningProfileIds(dir: string, alive: (pid: number) => boolean = isAlive): Promise<string[]> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return []
  }
  const ids: string[] = []
  for (const name of names) {
    const m = PID_FILE.exec(name)
    if (!m || !alive(Number(m[1]))) continue
    try {
      const record = JSON.parse(await readFile(join(dir, name), 'utf8')) as PidRecord
      if (typeof record.profileId === 'string' && alive(record.pid)) ids.push(record.profileId)
    } catch {
      // being written or removed: not counted
    }
  }
  return ids
}

/**
 * One per-process record of <home>/run/ as JSON (a serve's address for `profiles use`): the records of running
 * processes all live here, next to the pid files. Throws when it is missing or half written.
 */
export async function readRunRecord(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8')) as unknown
}

/** Writes one per-process record of <home>/run/ whole (never half written), beside the pid files. */
export async function writeRunRecord(file: string, record: unknown): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(record))
}
