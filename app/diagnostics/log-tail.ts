import { constants } from 'node:fs'
import { open } from 'node:fs/promises'
import { basename } from 'node:path'
import { fileKind } from '../lib/read-regular-file'

/** Only a regular file, never through a link (one to a secret would land in the bundle), never waiting on a FIFO. */
const TAIL_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

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
    handle = await open(path, TAIL_FLAGS)
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { lines: [], sizeBytes: null, truncated: false }
    if (code === 'ELOOP')
      return { lines: [], sizeBytes: null, truncated: false, problem: `${basename(path)} is a link, not a file: it was left out.` }
    return { lines: [], sizeBytes: null, truncated: false, problem: (err as Error).message }
  }
  try {
    const info = await handle.stat()
    if (!info.isFile())
      return {
        lines: [],
        sizeBytes: null,
        truncated: false,
        problem: `${basename(path)} is ${fileKind(info)}, not a file: it was left out.`,
      }
    const size = info.size
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
