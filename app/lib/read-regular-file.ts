import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs'
import { open } from 'node:fs/promises'

/**
 * Reading a path someone else may have put there (a home file, a key file, a log): only a regular file is read,
 * and at most maxBytes of it. Opened without waiting (O_NONBLOCK: a FIFO with no writer would block the open
 * forever) and checked on the open handle, so what is checked is what is read.
 */

/** A file that is not what it claims, or too big: the message is one sentence naming the file and what it is. */
export class FileRefusedError extends Error {
  constructor(
    message: string,
    /** ENOTREG: not a regular file; EFBIG: over the size cap. */
    readonly code: 'ENOTREG' | 'EFBIG',
    /** What the path is, for ENOTREG ("a folder", "a FIFO (a named pipe)"). */
    readonly kind: string | null = null,
  ) {
    super(message)
    this.name = 'FileRefusedError'
  }
}

const CHUNK_BYTES = 64 * 1024
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0)

/** What a non-regular file is, in words: "a FIFO", "a device", "a folder". */
export function fileKind(s: Stats): string {
  if (s.isFile()) return 'a file'
  if (s.isDirectory()) return 'a folder'
  if (s.isFIFO()) return 'a FIFO (a named pipe)'
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device'
  if (s.isSocket()) return 'a socket'
  if (s.isSymbolicLink()) return 'a link'
  return 'not a regular file'
}

function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.ceil(bytes / 1024)} KB`
}

function refusal(s: Stats, name: string, maxBytes: number): FileRefusedError | null {
  if (!s.isFile())
    return new FileRefusedError(`${name} is ${fileKind(s)}, not a file: remove it or put a regular file there.`, 'ENOTREG', fileKind(s))
  if (s.size > maxBytes) return tooBig(name, s.size, maxBytes)
  return null
}

function tooBig(name: string, size: number | null, maxBytes: number): FileRefusedError {
  const is = size === null ? 'is larger than' : `is ${sizeText(size)}, more than`
  return new FileRefusedError(`${name} ${is} the ${sizeText(maxBytes)} it may be: remove it or replace it with a smaller one.`, 'EFBIG')
}

/** The file's bytes; FileRefusedError for anything but a regular file of at most maxBytes, the fs error otherwise. */
export async function readRegularFile(path: string, maxBytes: number, name: string = path): Promise<Buffer> {
  const handle = await open(path, READ_FLAGS)
  try {
    const problem = refusal(await handle.stat(), name, maxBytes)
    if (problem) throw problem
    const chunks: Buffer[] = []
    let filled = 0
    // Up to one byte past the cap: a file that grew since the stat is still caught.
    for (;;) {
      const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, maxBytes + 1 - filled))
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, filled)
      if (bytesRead === 0) break
      chunks.push(chunk.subarray(0, bytesRead))
      filled += bytesRead
      if (filled > maxBytes) throw tooBig(name, null, maxBytes)
    }
    return Buffer.concat(chunks)
  } finally {
    await handle.close()
  }
}

/** readRegularFile for the few reads that cannot wait. */
export function readRegularFileSync(path: string, maxBytes: number, name: string = path): Buffer {
  const fd = openSync(path, READ_FLAGS)
  try {
    const problem = refusal(fstatSync(fd), name, maxBytes)
    if (problem) throw problem
    const chunks: Buffer[] = []
    let filled = 0
    for (;;) {
      const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, maxBytes + 1 - filled))
      const bytesRead = readSync(fd, chunk, 0, chunk.length, filled)
      if (bytesRead === 0) break
      chunks.push(chunk.subarray(0, bytesRead))
      filled += bytesRead
      if (filled > maxBytes) throw tooBig(name, null, maxBytes)
    }
    return Buffer.concat(chunks)
  } finally {
    closeSync(fd)
  }
}
