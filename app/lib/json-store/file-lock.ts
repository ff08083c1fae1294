import { hostname } from 'node:os'
import { readdir, rmdir, stat, unlink, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { lock } from 'proper-lockfile'
import { isProcessAlive } from '../process/process-alive'
import { problem, type Problem } from '../../contract/problem'

/** Raised when a file stays locked by another process for longer than the wait allows. */
export class FileLockError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FileLockError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('busy', this.message)
  }
}

export interface FileLockOptions {
  /** A lock whose holder has not refreshed it for this long is taken over (proper-lockfile's `stale`; at least 2 s). */
  readonly staleMs?: number
  /** How long to wait for a live holder before giving up with a FileLockError. */
  readonly waitMs?: number
}

// The holder refreshes the lock's mtime every staleMs / 2 while it holds it; 10 s leaves a busy
// machine (2 cores, 20 processes) room for a late refresh without another process taking over.
const DEFAULT_STALE_MS = 10_000
const DEFAULT_WAIT_MS = 60_000

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

const lockFolderOf = (path: string): string => `${path}.lock`
// Every process that tries to lock a file first leaves `<file>.lock-pid.<host>.<pid>` and removes
// it only after releasing, so a lock with no live process of this host beside it was left by a
// killed holder and can go at once (the mtime rule would keep it for staleMs).
const HOST = hostname().replace(/[^A-Za-z0-9-]/g, '_')
const pidFilePrefix = (path: string): string => `${basename(path)}.lock-pid.`
const pidFileOf = (path: string, pid = process.pid): string => join(dirname(path), `${pidFilePrefix(path)}${HOST}.${pid}`)

/** How many acquisitions of each file this process has in flight (its pid file stays while any does). */
const inFlight = new Map<string, number>()

/**
 * Runs `fn` while holding the cross-process lock of `path` (the folder `<path>.lock`, made with
 * proper-lockfile). Waiters retry with a jittered backoff. A lock left by a killed holder is taken
 * over at once when no live process of this host has a pid file beside it, else (other live
 * waiters, another host) once it is stale by proper-lockfile's mtime rule: a crash never blocks
 * the file for good.
 */
export async function withFileLock<T>(path: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  inFlight.set(path, (inFlight.get(path) ?? 0) + 1)
  try {
    await writeFile(pidFileOf(path), '')
    const release = await acquire(path, options)
    try {
      return await fn()
    } finally {
      await release()
    }
  } finally {
    const left = (inFlight.get(path) ?? 1) - 1
    if (left === 0) {
      inFlight.delete(path)
      await unlink(pidFileOf(path)).catch(() => {})
    } else inFlight.set(path, left)
  }
}

async function acquire(path: string, options: FileLockOptions): Promise<() => Promise<void>> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS
  const deadline = Date.now() + (options.waitMs ?? DEFAULT_WAIT_MS)
  for (let attempt = 0; ; attempt++) {
    try {
      const release = await lock(path, {
        realpath: false,
        stale: staleMs,
        retries: 0,
        // The default throws from a timer; a late refresh must not crash the process.
        onCompromised: (err) => process.emitWarning(`the lock on ${path} was taken over while held: ${err.message}`),
      })
      return () => release().catch(() => {})
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err
      if (await takeOverFromDeadHolder(path)) continue
      if (Date.now() > deadline) {
        throw new FileLockError(
          `${path} is locked by another Llama Tray process; close it and try again, or delete ${lockFolderOf(path)} if no Llama Tray ` +
            `is running.`,
        )
      }
      await sleep(Math.min(10 * 1.5 ** attempt, 250) * (0.5 + Math.random()))
    }
  }
}

/** The pids of this host's processes that left a pid file for `path`; dead ones' files are removed. */
async function livePidsBeside(path: string): Promise<number[] | null> {
  const prefix = `${pidFilePrefix(path)}${HOST}.`
  let names: string[]
  try {
    names = await readdir(dirname(path))
  } catch {
    return null
  }
  // A pid file of another host: its process may hold the lock, and cannot be checked from here.
  if (names.some((n) => n.startsWith(pidFilePrefix(path)) && !n.startsWith(prefix))) return null
  const live: number[] = []
  for (const name of names) {
    if (!name.startsWith(prefix)) continue
    const pid = Number(name.slice(prefix.length))
    if (!Number.isInteger(pid)) continue
    if (pid === process.pid ? (inFlight.get(path) ?? 0) > 1 : isProcessAlive(pid)) live.push(pid)
    else if (pid !== process.pid) await unlink(join(dirname(path), name)).catch(() => {})
  }
  return live
}

/** Removes the lock folder when no live process of this host could hold it (its holder was killed). */
async function takeOverFromDeadHolder(path: string): Promise<boolean> {
  const lockFolder = lockFolderOf(path)
  try {
    const before = await stat(lockFolder, { bigint: true })
    const live = await livePidsBeside(path)
    if (live === null || live.length > 0) return false
    // Still the same lock folder: never remove one that a live process made meanwhile.
    const now = await stat(lockFolder, { bigint: true })
    if (now.ino !== before.ino || now.ctimeNs !== before.ctimeNs) return false
    await rmdir(lockFolder)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT'
  }
}
