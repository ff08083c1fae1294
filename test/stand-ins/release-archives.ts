import { createWriteStream } from 'node:fs'
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip, gzipSync } from 'node:zlib'
import * as tar from 'tar'
import yazl from 'yazl'

/** One file of an archive a test builds: its bytes, or a real file to copy (the cached llama-server). */
export type ArchiveFile = { readonly name: string; readonly mode?: number } & (
  { readonly content: Buffer | string } | { readonly from: string }
)

/**
 * A Linux release tarball the way llama.cpp's release.yml makes it: one top
 * folder `llama-<tag>/` with the binaries inside. Built with npm's tar from
 * real files on disk (symlinks stay links).
 */
export async function linuxTarGz(
  tag: string,
  files: readonly ArchiveFile[],
  links: readonly { name: string; target: string }[] = [],
): Promise<Buffer> {
  const stage = await mkdtemp(join(tmpdir(), 'llama-tar-'))
  try {
    const top = join(stage, `llama-${tag}`)
    await mkdir(top)
    for (const f of files) {
      const path = join(top, f.name)
      await mkdir(dirname(path), { recursive: true })
      if ('from' in f) await copyFile(f.from, path)
      else await writeFile(path, f.content)
      await chmod(path, f.mode ?? 0o755)
    }
    for (const l of links) await symlink(l.target, join(top, l.name))
    const tarball = join(stage, 'out.tar.gz')
    await tar.c({ gzip: true, file: tarball, cwd: stage, portable: true }, [`llama-${tag}`])
    return await readFile(tarball)
  } finally {
    await rm(stage, { recursive: true, force: true })
  }
}

/** A flat Windows release zip (`llama-server.exe`, `ggml-*.dll`, … at the top), built with yazl. */
export function windowsZip(files: readonly ArchiveFile[]): Promise<Buffer> {
  const zip = new yazl.ZipFile()
  for (const f of files) {
    if ('from' in f) zip.addFile(f.from, f.name, { mode: f.mode ?? 0o100644 })
    else zip.addBuffer(Buffer.from(f.content), f.name, { mode: f.mode ?? 0o100644 })
  }
  zip.end()
  const chunks: Buffer[] = []
  return new Promise((done, fail) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c))
    zip.outputStream.on('end', () => done(Buffer.concat(chunks)))
    zip.outputStream.on('error', fail)
  })
}

/**
 * A zip whose entry names no honest writer makes (yazl refuses `..` and
 * absolute paths): written with same-length placeholders, then the names are
 * patched in the local headers and the central directory (CRCs cover the
 * content only, so the zip stays valid).
 */
export async function zipWithNames(entries: readonly { readonly name: string; readonly content: string }[]): Promise<Buffer> {
  const placeholders = entries.map((e, i) =>
    `${String(i).padStart(3, '0')}${'x'.repeat(Math.max(0, e.name.length - 3))}`.slice(0, e.name.length),
  )
  const buf = await windowsZip(entries.map((e, i) => ({ name: placeholders[i] as string, content: e.content })))
  entries.forEach((e, i) => {
    const from = Buffer.from(placeholders[i] as string)
    const to = Buffer.from(e.name)
    for (let at = buf.indexOf(from); at !== -1; at = buf.indexOf(from, at + 1)) to.copy(buf, at)
  })
  return buf
}

/** A raw ustar entry: any name, a file or a link, exactly as given (npm's tar would sanitize it). */
export interface RawTarEntry {
  readonly name: string
  readonly type: 'file' | 'symlink' | 'hardlink' | 'dir'
  readonly content?: string
  readonly linkname?: string
}

/** A .tar.gz written byte by byte, for archives that try to escape their folder. */
export function rawTarGz(entries: readonly RawTarEntry[]): Buffer {
  const blocks: Buffer[] = []
  for (const e of entries) {
    const body = Buffer.from(e.content ?? '')
    blocks.push(tarHeader(e, body.length))
    if (body.length > 0) blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512))
  }
  blocks.push(Buffer.alloc(1024))
  return gzipSync(Buffer.concat(blocks))
}

/** One ustar header block for `e` with a body of `size` bytes. */
function tarHeader(e: RawTarEntry, size: number): Buffer {
  const h = Buffer.alloc(512)
  h.write(e.name, 0, 100, 'utf8')
  h.write('0000755\0', 100)
  h.write('0000000\0', 108)
  h.write('0000000\0', 116)
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124)
  h.write(
    `${Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, '0')}\0`,
    136,
  )
  h.write({ file: '0', hardlink: '1', symlink: '2', dir: '5' }[e.type], 156)
  if (e.linkname) h.write(e.linkname, 157, 100, 'utf8')
  h.write('ustar\0', 257)
  h.write('00', 263)
  h.fill(' ', 148, 156)
  let sum = 0
  for (const b of h) sum += b
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148)
  return h
}

/** `bytes` of zeros as a stream of 1 MiB chunks (a bomb's payload, never in memory at once). */
function zeros(bytes: number): Readable {
  const chunk = Buffer.alloc(1024 * 1024)
  let left = bytes
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null)
      const n = Math.min(chunk.length, left)
      left -= n
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n))
    },
  })
}

/**
 * An archive bomb written to `path` as it is made: a .tar.gz (a ustar header, then the
 * zeros, through gzip) or a .zip (yazl deflating the zeros), each of one file
 * `llama/<name>` of `bytes` zeros after `prefix` (e.g. random bytes, to set the archive's
 * size). Memory stays at a few MiB whatever `bytes` is.
 */
export async function writeZeroBomb(path: string, bytes: number, prefix: Buffer = Buffer.alloc(0), name = 'ggml-cuda.dll'): Promise<void> {
  const size = prefix.length + bytes
  const payload = (): Readable =>
    Readable.from(
      (async function* () {
        if (prefix.length > 0) yield prefix
        yield* zeros(bytes)
      })(),
    )
  if (path.endsWith('.zip')) {
    const zip = new yazl.ZipFile()
    zip.addReadStreamLazy(`llama/${name}`, { size, mode: 0o100644 }, (cb) => cb(null, payload()))
    zip.end()
    return pipeline(zip.outputStream, createWriteStream(path))
  }
  const tarStream = Readable.from(
    (async function* () {
      yield tarHeader({ name: `llama/${name}`, type: 'file' }, size)
      yield* payload()
      yield Buffer.alloc(((512 - (size % 512)) % 512) + 1024)
    })(),
  )
  await pipeline(tarStream, createGzip({ level: 9 }), createWriteStream(path))
}
