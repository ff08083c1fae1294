import { open, rename, unlink } from 'node:fs/promises'
import { dirname } from 'node:path'

// Windows: antivirus and indexers hold files briefly; rename then fails with these.
const TRANSIENT = new Set(['EPERM', 'EBUSY', 'EACCES'])

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** rename() retried on transient Windows errors (10, 20, 40 … ms, about 1.3 s in all). */
export async function renameWithRetry(from: string, to: string, attempts = 8, renameFn = rename): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await renameFn(from, to)
      return
    } catch (err) {
      if (attempt + 1 >= attempts || !TRANSIENT.has(errorCode(err) ?? '')) throw err
      await sleep(10 * 2 ** attempt)
    }
  }
}

let writes = 0

/**
 * A temp file name for one write of `path`: the pid makes a killed writer's
 * leftover recognisable, the count keeps two writes of one process apart (with
 * one name per process, concurrent writes of a file truncated each other's temp
 * file and all but one rename failed).
 */
export function tempPathFor(path: string, pid = process.pid): string {
  writes += 1
  return `${path}.${pid}.${writes}.tmp`
}

/** The pid of the writer that left `fileName`, when it is a temp file of a write of `targetName` (same folder); else null. */
export function tempFileWriter(fileName: string, targetName: string): number | null {
  if (!fileName.startsWith(`${targetName}.`)) return null
  const m = /^(\d+)\.\d+\.tmp$/.exec(fileName.slice(targetName.length + 1))
  return m ? Number(m[1]) : null
}

/**
 * Replaces `path` with `data` so that a reader (or a crash at any instant)
 * sees either the old content or the new, never a mix: write a temp file in
 * the same folder, fsync it, rename it over the target, fsync the folder.
 */
export async function writeFileAtomic(path: string, data: string, openFn: typeof open = open): Promise<void> {
  const temp = tempPathFor(path)
  const handle = await openFn(temp, 'w', 0o600)
  try {
    await handle.writeFile(data, 'utf8')
    await handle.sync()
  } catch (err) {
    // A full disk (ENOSPC) or a failing one: the temp file would stay for good, 0 bytes or partial.
    await handle.close().catch(() => {})
    await unlink(temp).catch(() => {})
    throw err
  }
  await handle.close()
  try {
    await renameWithRetry(temp, path)
  } catch (err) {
    await unlink(temp).catch(() => {})
    throw err
  }
  await syncFolder(dirname(path))
}

/** Makes the rename durable on POSIX; folders cannot be opened this way on Windows. */
async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return
  try {
    const dir = await open(folder, 'r')
    try {
      await dir.sync()
    } finally {
      await dir.close()
    }
  } catch {
    // best effort: some file systems refuse fsync on folders
  }
}
