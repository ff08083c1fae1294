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
}

export class PidFiles {
  constructor(
    private readonly dir: string,
    /** How a pid's identity is read now (tests inject another platform's). */
    private readonly readIdentity: (pid: number) => Promise<ProcessIdentity | null> = (pid) => readProcessIdentity(pid),
    private readonly alive: (pid: number) => boolean = isAlive,
  ) {}

  private fileFor(ownerPid: number): string {
    return join(this.dir, `llama-server.${ownerPid}.json`)
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
      const m = /^llama-server\.(\d+)\.json$/.exec(name)
      if (!m) continue
      const ownerPid = Number(m[1])
      if (ownerPid !== process.pid && this.alive(ownerPid)) continue // another live supervisor owns it
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
