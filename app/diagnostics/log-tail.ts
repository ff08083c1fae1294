import { open } from 'node:fs/promises'

export interface LogTail {
  readonly lines: readonly string[]
  /** The file's size in bytes; null when it does not exist. */
  readonly sizeBytes: number | null
  /** True when older lines were left out. */
  readonly truncated: boolean
  /** Why the log could not be read (it exists but is a folder, or is not readable); null when it was. */
  readonly problem?: string | null
}

/**
 * The end of a log file, bounded in bytes and lines: llama-server's log may
 * be megabytes, and a bundle for an issue needs its last start and exit. The
 * first, probably partial, line of the window is dropped.
 */
export async function readLogTail(path: string, maxBytes: number, maxLines: number): Promise<LogTail> {
  let handle
  try {
    handle = await open(path, 'r')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], sizeBytes: null, truncated: false }
    return { lines: [], sizeBytes: null, truncated: false, problem: (err as Error).message }
  }
  try {
    const size = (await handle.stat()).size
    const start = Math.max(0, size - maxBytes)
    const buffer = Buffer.alloc(size - start)
    try {
      await handle.read(buffer, 0, buffer.length, start)
    } catch (err) {
      // A bundle is most wanted when something is wrong: an unreadable log is a fact in it, not a failure of it.
      return { lines: [], sizeBytes: null, truncated: false, problem: (err as Error).message }
    }
    let lines = buffer.toString('utf8').split(/\r?\n/)
    if (lines.at(-1) === '') lines.pop()
    if (start > 0) lines = lines.slice(1)
    const cut = Math.max(0, lines.length - maxLines)
    return { lines: lines.slice(cut), sizeBytes: size, truncated: start > 0 || cut > 0 }
  } finally {
    await handle.close()
  }
}
