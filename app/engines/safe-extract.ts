import { createWriteStream } from 'node:fs'
import { chmod, mkdir } from 'node:fs/promises'
import { dirname, isAbsolute, posix, relative, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import * as tar from 'tar'
import yauzl from 'yauzl'

/** An archive that would write outside its folder (absolute path, `..`, a link leading out) or holds a device or FIFO. */
export class UnsafeArchiveError extends Error {
  constructor(
    readonly archive: string,
    readonly entry: string,
    readonly why: string,
  ) {
    super(`refused ${archive}: its entry "${entry}" ${why}`)
    this.name = 'UnsafeArchiveError'
  }
}

/** Why an archive path may not be written (null when it is a plain relative path inside the archive). */
export function unsafePathReason(name: string): string | null {
  const p = name.replace(/\\/g, '/')
  if (p.startsWith('/') || /^[a-zA-Z]:/.test(p)) return 'is an absolute path'
  if (p.split('/').includes('..')) return 'climbs out with ".."'
  return null
}

/** Why a link at `entry` pointing at `target` may not be made (null when it stays inside the archive). */
export function unsafeLinkReason(entry: string, target: string, kind: 'symlink' | 'hardlink'): string | null {
  const t = target.replace(/\\/g, '/')
  if (t.startsWith('/') || /^[a-zA-Z]:/.test(t)) return `is a ${kind} to the absolute path ${target}`
  // A symlink resolves from its own folder; a hard link names a path from the archive's root.
  const from = kind === 'symlink' ? posix.dirname(entry.replace(/\\/g, '/')) : '.'
  const joined = posix.normalize(posix.join(from, t))
  if (joined === '..' || joined.startsWith('../')) return `is a ${kind} leading outside the archive (${target})`
  return null
}

/** Extracts a .tar.gz or .zip into `dest` (which must exist), refusing the whole archive at its first unsafe entry. */
export async function extractArchive(archive: string, dest: string): Promise<void> {
  if (/\.(tar\.gz|tgz)$/i.test(archive)) return extractTarGz(archive, dest)
  if (/\.zip$/i.test(archive)) return extractZip(archive, dest)
  throw new Error(`cannot extract ${archive}: only .zip and .tar.gz archives are supported`)
}

async function extractTarGz(archive: string, dest: string): Promise<void> {
  let refusal: UnsafeArchiveError | null = null
  const refuse = (entry: string, why: string): false => {
    refusal ??= new UnsafeArchiveError(archive, entry, why)
    return false
  }
  await tar.x({
    file: archive,
    cwd: dest,
    strict: true, // tar's own warnings (a stripped path, a bad header) fail the extraction instead of passing silently
    preserveOwner: false,
    filter: (path, entry) => {
      if (refusal) return false
      const why = unsafePathReason(path)
      if (why) return refuse(path, why)
      if (!('type' in entry)) return true
      const type = entry.type
      if (type === 'SymbolicLink' || type === 'Link') {
        const linkWhy = unsafeLinkReason(path, entry.linkpath ?? '', type === 'SymbolicLink' ? 'symlink' : 'hardlink')
        return linkWhy ? refuse(path, linkWhy) : true
      }
      if (type === 'File' || type === 'OldFile' || type === 'ContiguousFile' || type === 'Directory') return true
      return refuse(path, `is a ${type}, not a file or folder`)
    },
  })
  if (refusal) throw refusal
}

async function extractZip(archive: string, dest: string): Promise<void> {
  let zip: yauzl.ZipFile
  try {
    // strictFileNames: yauzl itself refuses absolute paths, ".." and backslashes in entry names.
    zip = await new Promise<yauzl.ZipFile>((done, fail) => yauzl.open(archive, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (err, z) => (err ? fail(err) : done(z))))
  } catch (err) {
    throw zipError(archive, err)
  }
  const root = resolve(dest)
  try {
    await new Promise<void>((done, fail) => {
      zip.on('error', (err: unknown) => fail(zipError(archive, err)))
      zip.on('end', () => done())
      zip.on('entry', (entry: yauzl.Entry) => {
        writeZipEntry(zip, entry, root, archive).then(
          () => zip.readEntry(),
          (err: unknown) => fail(err),
        )
      })
      zip.readEntry()
    })
  } finally {
    zip.close()
  }
}

async function writeZipEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, root: string, archive: string): Promise<void> {
  const name = entry.fileName
  const why = unsafePathReason(name)
  if (why) throw new UnsafeArchiveError(archive, name, why)
  const mode = (entry.externalFileAttributes >>> 16) & 0o177777
  const fileType = mode & 0o170000
  if (fileType === 0o120000) throw new UnsafeArchiveError(archive, name, 'is a symlink (release zips hold none)')
  const target = resolve(root, name)
  const rel = relative(root, target)
  if (rel.startsWith('..') || isAbsolute(rel)) throw new UnsafeArchiveError(archive, name, 'resolves outside the folder')
  if (name.endsWith('/')) {
    await mkdir(target, { recursive: true })
    return
  }
  await mkdir(dirname(target), { recursive: true })
  const stream = await new Promise<NodeJS.ReadableStream>((done, fail) => zip.openReadStream(entry, (err, s) => (err ? fail(zipError(archive, err)) : done(s))))
  await pipeline(stream, createWriteStream(target, { flags: 'wx' }))
  // Keep the execute bit a zip made on Unix carries; Windows zips carry none and need none.
  if (mode & 0o111) await chmod(target, 0o755)
}

function zipError(archive: string, err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err)
  const unsafe = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/.exec(message)
  if (unsafe) return new UnsafeArchiveError(archive, unsafe[2] as string, unsafe[1] === 'absolute path' ? 'is an absolute path' : unsafe[1] === 'invalid relative path' ? 'climbs out with ".."' : 'has a backslash or another character a zip may not hold')
  return new Error(`cannot read the zip ${archive}: ${message}`)
}
