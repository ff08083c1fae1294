import { createReadStream } from 'node:fs'
import { readdir, rm, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import * as tar from 'tar'
import yauzl from 'yauzl'
import { limitsFor } from './archive-budget'
import { DamagedArchiveError, UnsafeArchiveError } from './archive-error'
import { ArchiveWriter } from './archive-writer'

export { DamagedArchiveError, UnsafeArchiveError } from './archive-error'
export { unsafeLinkReason, unsafePathReason } from './archive-writer'

/**
 * Extracts a .tar.gz or .zip into `dest`, an empty folder, refusing the whole archive at its
 * first unsafe entry (see ArchiveWriter) or past its budgets (archive-budget.ts). On any
 * failure `dest` is emptied again and the error is an UnsafeArchiveError or a DamagedArchiveError.
 */
export async function extractArchive(archive: string, dest: string): Promise<void> {
  const name = basename(archive)
  const isTar = /\.(tar\.gz|tgz)$/i.test(archive)
  if (!isTar && !/\.zip$/i.test(archive)) throw new DamagedArchiveError(name, 'only .zip and .tar.gz archives are supported')
  const size = (await stat(archive)).size
  const writer = new ArchiveWriter(name, size, dest, limitsFor(size))
  try {
    await (isTar ? extractTarGz(archive, name, writer) : extractZip(archive, name, writer))
    await writer.finish()
  } catch (err) {
    for (const entry of await readdir(dest)) await rm(join(dest, entry), { recursive: true, force: true })
    throw asArchiveError(name, err)
  }
}

/** Refusals and the file system's own errors (a full disk, no permission) as they are; anything else means the archive is unreadable. */
function asArchiveError(archive: string, err: unknown): unknown {
  if (err instanceof UnsafeArchiveError || err instanceof DamagedArchiveError) return err
  if (typeof (err as NodeJS.ErrnoException | null)?.syscall === 'string') return err
  return new DamagedArchiveError(archive, err instanceof Error ? err.message : String(err))
}

async function extractTarGz(archive: string, name: string, writer: ArchiveWriter): Promise<void> {
  // Headers are parsed by npm's tar; every write is ArchiveWriter's. strict: a bad header fails instead of being skipped.
  const parser = new tar.Parser({ strict: true, maxMetaEntrySize: 1024 * 1024 })
  // Large chunks: each one crosses a few promises on its way to the disk, so 16 KiB ones cost twice the time.
  const source = createReadStream(archive, { highWaterMark: 1024 * 1024 })
  const sink = feeding(parser)
  let failure: unknown = null
  let queue = Promise.resolve()
  const open = new Set<tar.ReadEntry>()
  // Entries are written one after another; an entry not yet read holds the parser (and the gunzip) back.
  parser.on('entry', (entry: tar.ReadEntry) => {
    open.add(entry)
    queue = queue
      .then(() => (failure === null ? writeTarEntry(entry, name, writer) : entry.resume()))
      .catch((err: unknown) => {
        failure ??= err
        entry.resume()
        // Stop at the end of the pipe, with the error: destroying the source instead can leave
        // pipeline waiting forever for an 'end' that never comes (a source that has read its
        // last byte but whose data still sits in its buffer counts as ended, not as cut).
        sink.destroy(err instanceof Error ? err : new Error(String(err)))
      })
      .finally(() => open.delete(entry))
  })
  try {
    await pipeline(source, createGunzip({ chunkSize: 256 * 1024 }), sink)
  } catch (err) {
    failure ??= err
    // A cut archive leaves its last entry waiting for bytes that never come: end its reader with the error.
    for (const entry of open) entry.destroy(err instanceof Error ? err : new Error(String(err)))
  }
  await queue
  if (failure !== null) throw asArchiveError(name, failure)
}

/**
 * tar's Parser is not a Node stream: `pipeline` cannot destroy it and, when the source is
 * stopped early (an entry refused), waits for its end forever. This Writable feeds it with
 * backpressure, ends when it ends, and is what `pipeline` destroys.
 */
function feeding(parser: tar.Parser): Writable {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (parser.write(chunk)) done()
      else parser.once('drain', () => done())
    },
    final(done) {
      parser.once('end', () => done())
      parser.end()
    },
  })
  parser.on('error', (err: Error) => sink.destroy(err))
  return sink
}

async function writeTarEntry(entry: tar.ReadEntry, archive: string, writer: ArchiveWriter): Promise<void> {
  const path = entry.path
  switch (entry.type) {
    case 'File':
    case 'OldFile':
    case 'ContiguousFile':
      return writer.file(path, async () => entry, ((entry.mode ?? 0) & 0o111) !== 0, entry.size ?? 0)
    case 'Directory':
      entry.resume()
      return writer.dir(path)
    case 'SymbolicLink':
      entry.resume()
      return writer.symlink(path, entry.linkpath ?? '')
    case 'Link':
      entry.resume()
      return writer.hardlink(path, entry.linkpath ?? '')
    default:
      entry.resume()
      throw new UnsafeArchiveError(archive, path, `is a ${entry.type}, not a file, folder or link`)
  }
}

async function extractZip(archive: string, name: string, writer: ArchiveWriter): Promise<void> {
  let zip: yauzl.ZipFile
  try {
    // strictFileNames: yauzl itself refuses absolute paths, ".." and backslashes in entry names.
    const options = { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }
    zip = await new Promise<yauzl.ZipFile>((done, fail) => yauzl.open(archive, options, (err, z) => (err ? fail(err) : done(z))))
  } catch (err) {
    throw zipError(name, err)
  }
  try {
    await new Promise<void>((done, fail) => {
      zip.on('error', (err: unknown) => fail(zipError(name, err)))
      zip.on('end', () => done())
      zip.on('entry', (entry: yauzl.Entry) => {
        writeZipEntry(zip, entry, name, writer).then(
          () => zip.readEntry(),
          (err: unknown) => fail(zipError(name, err)),
        )
      })
      zip.readEntry()
    })
  } finally {
    zip.close()
  }
}

async function writeZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, archive: string, writer: ArchiveWriter): Promise<void> {
  const path = entry.fileName
  const mode = (entry.externalFileAttributes >>> 16) & 0o177777
  if ((mode & 0o170000) === 0o120000) throw new UnsafeArchiveError(archive, path, 'is a symlink (release zips hold none)')
  if (path.endsWith('/')) return writer.dir(path)
  const open = (): Promise<AsyncIterable<Buffer>> =>
    new Promise((done, fail) => {
      zip.openReadStream(entry, (err, stream) => (err ? fail(err) : done(stream as NodeJS.ReadableStream & AsyncIterable<Buffer>)))
    })
  // Keep the execute bit a zip made on Unix carries; Windows zips carry none and need none.
  await writer.file(path, open, (mode & 0o111) !== 0, entry.uncompressedSize)
}

function zipError(archive: string, err: unknown): unknown {
  const message = err instanceof Error ? err.message : String(err)
  const unsafe = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/.exec(message)
  if (unsafe) {
    const why =
      unsafe[1] === 'absolute path'
        ? 'is an absolute path'
        : unsafe[1] === 'invalid relative path'
          ? 'climbs out with ".."'
          : 'has a backslash or another character a zip may not hold'
    return new UnsafeArchiveError(archive, unsafe[2] as string, why)
  }
  return asArchiveError(archive, err)
}
