import { createWriteStream } from 'node:fs'
import { unlink } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'
import { ZipFile } from 'yazl'
import { renameWithRetry, tempPathFor } from '../lib/atomic-write'

export interface ZipEntry {
  readonly name: string
  readonly text: string
}

/**
 * Writes text entries into a zip at `path` (yazl, deflated), through a temp
 * file renamed over the target: a failed write never leaves half a bundle.
 */
export async function writeTextZip(path: string, entries: readonly ZipEntry[], mtime = new Date()): Promise<void> {
  const zip = new ZipFile()
  for (const entry of entries) zip.addBuffer(Buffer.from(entry.text, 'utf8'), entry.name, { mtime, mode: 0o644 })
  zip.end()
  const temp = tempPathFor(path)
  try {
    await pipeline(zip.outputStream, createWriteStream(temp, { mode: 0o600 }))
    await renameWithRetry(temp, path)
  } catch (err) {
    await unlink(temp).catch(() => {})
    throw err
  }
}
