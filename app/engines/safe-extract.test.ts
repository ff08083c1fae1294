import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile, readlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { linuxTarGz, rawTarGz, windowsZip, writeZeroBomb, zipWithNames, type RawTarEntry } from '../../test/stand-ins/release-archives'
import { DamagedArchiveError, extractArchive, UnsafeArchiveError } from './safe-extract'

let base: string
let dest: string
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'safe-extract-'))
  dest = join(base, 'a', 'b', 'dest')
  await mkdir(dest, { recursive: true })
})
afterEach(() => rm(base, { recursive: true, force: true }))

async function archive(name: string, bytes: Buffer): Promise<string> {
  const path = join(base, name)
  await writeFile(path, bytes)
  return path
}

/** Every file under base except the archives and dest's own content. */
async function outside(): Promise<string[]> {
  const found: string[] = []
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name)
      if (p === dest) continue
      if (e.isDirectory()) await walk(p)
      else if (!/\.(zip|tar\.gz)$/.test(e.name)) found.push(p)
    }
  }
  await walk(base)
  return found
}

describe('extractArchive', () => {
  it('extracts a release tarball with its top folder, execute bits and an inside symlink', async () => {
    const tgz = await archive(
      'ok.tar.gz',
      await linuxTarGz(
        'b1',
        [
          { name: 'llama-server', content: '#!/bin/sh\n', mode: 0o755 },
          { name: 'libggml.so.1', content: 'lib', mode: 0o644 },
        ],
        [{ name: 'libggml.so', target: 'libggml.so.1' }],
      ),
    )
    await extractArchive(tgz, dest)
    expect((await stat(join(dest, 'llama-b1', 'llama-server'))).mode & 0o111).not.toBe(0)
    expect(await readlink(join(dest, 'llama-b1', 'libggml.so'))).toBe('libggml.so.1')
  })

  it('extracts a flat Windows zip', async () => {
    const zip = await archive(
      'ok.zip',
      await windowsZip([
        { name: 'llama-server.exe', content: 'MZ' },
        { name: 'ggml-cpu.dll', content: 'dll' },
      ]),
    )
    await extractArchive(zip, dest)
    expect((await readdir(dest)).sort()).toEqual(['ggml-cpu.dll', 'llama-server.exe'])
    expect(await readFile(join(dest, 'llama-server.exe'), 'utf8')).toBe('MZ')
  })

  it.each([
    ['a "../" path', [{ name: '../../evil.txt', type: 'file' as const, content: 'x' }], 'climbs out'],
    ['an absolute path', [{ name: `${'/tmp'}/llama-tray-evil-${process.pid}.txt`, type: 'file' as const, content: 'x' }], 'absolute path'],
    [
      'a symlink leading out',
      [
        { name: 'llama/lib', type: 'symlink' as const, linkname: '../../../' },
        { name: 'llama/lib/evil.txt', type: 'file' as const, content: 'x' },
      ],
      'symlink leading outside',
    ],
    ['an absolute symlink', [{ name: 'llama/etc', type: 'symlink' as const, linkname: '/etc' }], 'absolute path'],
    ['a hard link leading out', [{ name: 'llama/h', type: 'hardlink' as const, linkname: '../outside.txt' }], 'hardlink leading outside'],
  ])('refuses a tarball with %s and writes nothing outside', async (_what, entries, why) => {
    const tgz = await archive('bad.tar.gz', rawTarGz([{ name: 'llama/ok.txt', type: 'file', content: 'fine' }, ...entries]))
    const err = await extractArchive(tgz, dest).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UnsafeArchiveError)
    expect((err as Error).message).toContain(why)
    expect(await outside()).toEqual([])
    expect(existsSync(`/tmp/llama-tray-evil-${process.pid}.txt`)).toBe(false)
  })

  it.each([
    ['a "../" path', '../../evil.txt', 'climbs out'],
    ['an absolute path', '/tmp/llama-evil.txt', 'absolute path'],
  ])('refuses a zip with %s and writes nothing outside', async (_what, name, why) => {
    const zip = await archive(
      'bad.zip',
      await zipWithNames([
        { name: 'ok.txt', content: 'fine' },
        { name, content: 'x' },
      ]),
    )
    const err = await extractArchive(zip, dest).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UnsafeArchiveError)
    expect((err as Error).message).toContain(why)
    expect(await outside()).toEqual([])
    expect(existsSync('/tmp/llama-evil.txt')).toBe(false)
  })
})

const TWICE = 'comes twice in the archive (names that differ only in case count as one)'

describe('extractArchive against bombs and tricks', () => {
  /** The refusal of `archive`, with dest left empty and nothing written beside it. */
  async function refused(path: string): Promise<Error> {
    const err = (await extractArchive(path, dest).catch((e: unknown) => e)) as Error
    expect(err).toBeInstanceOf(Error)
    expect(await readdir(dest)).toEqual([])
    expect(await outside()).toEqual([])
    return err
  }

  it.each(['bomb.tar.gz', 'bomb.zip'])('refuses %s (256 MiB of zeros) before writing past 64 MiB, leaving nothing', async (name) => {
    const path = join(base, name)
    await writeZeroBomb(path, 256 * 1024 * 1024)
    const err = await refused(path)
    expect(err).toBeInstanceOf(UnsafeArchiveError)
    const why = 'takes it past 64 MiB unpacked \\(the least any archive may unpack to; the archive is \\d+(\\.\\d)? KiB\\)'
    const entry = 'its entry "llama/ggml-cuda\\.dll"'
    expect(err.message).toMatch(new RegExp(`^refused ${name.replace('.', '\\.')}: ${entry} ${why}, so it looks like an archive bomb$`))
  })

  it('ends every refusal of a bomb, even when the archive was read to its last byte first (30 in a row)', async () => {
    // The archive (about 256 KiB) fits one read: the reader has ended while its data still waits
    // in the pipe. Stopping that reader left the extraction hanging in about one run of five.
    const path = join(base, 'bomb.tar.gz')
    await writeZeroBomb(path, 256 * 1024 * 1024)
    for (let i = 0; i < 30; i++) expect(await refused(path)).toBeInstanceOf(UnsafeArchiveError)
  })

  it('refuses an archive that unpacks to more than 20 times its size, above the 64 MiB floor', async () => {
    const path = join(base, 'ratio.tar.gz')
    // 3.5 MiB that do not compress set the archive's size (about 70 MiB allowed); 80 MiB of zeros go past it.
    await writeZeroBomb(path, 80 * 1024 * 1024, randomBytes(3.5 * 1024 * 1024))
    const size = (await stat(path)).size
    const mib = (n: number): string => `${+(n / 1024 ** 2).toFixed(1)} MiB`
    const err = await refused(path)
    expect(err).toBeInstanceOf(UnsafeArchiveError)
    expect(err.message).toContain(`takes it past ${mib(20 * size)} unpacked (20 times its size; the archive is ${mib(size)})`)
  })

  it('refuses an archive of more than 10,000 entries', async () => {
    // Symlinks, which cost nothing until the end, keep the test quick; files count the same.
    const entries = Array.from({ length: 10_001 }, (_, i) => ({ name: `llama/l${i}`, type: 'symlink' as const, linkname: 'x' }))
    const err = await refused(await archive('many.tar.gz', rawTarGz(entries)))
    expect(err.message).toBe('refused many.tar.gz: its entry "llama/l10000" is past the 10000 entries an archive may hold')
  })

  const link = (name: string, linkname: string): RawTarEntry => ({ name, type: 'symlink', linkname })
  const file = (name: string, content = 'x'): RawTarEntry => ({ name, type: 'file', content })
  it.each([
    [
      'a file through a symlink inside',
      [{ name: 'llama/sub/', type: 'dir' as const }, link('llama/lib', 'sub'), file('llama/lib/x.txt')],
      'its entry "llama/lib/x.txt" would be written through the symlink llama/lib',
    ],
    [
      'a symlink through a symlink',
      [link('llama/a', '.'), link('llama/b', 'a/a/a'), file('llama/b/x.txt')],
      'its entry "llama/b/x.txt" would be written through the symlink llama/b',
    ],
    [
      'a symlink whose target climbs out through a later symlink',
      [link('llama/b', 'a/../..'), link('llama/a', '.')],
      'its entry "llama/b" is a symlink that leads through the symlink llama/a',
    ],
    ['a name twice', [file('llama/x', 'a'), file('llama/X', 'b')], `its entry "llama/X" ${TWICE}`],
  ])('refuses a tarball with %s in one sentence, leaving nothing', async (_what, entries, why) => {
    const err = await refused(await archive('trick.tar.gz', rawTarGz(entries)))
    expect(err).toBeInstanceOf(UnsafeArchiveError)
    expect(err.message).toBe(`refused trick.tar.gz: ${why}`)
  })

  it.each([
    ['twice', ['ggml.dll', 'ggml.dll']],
    ['twice, differing in case', ['ggml.dll', 'GGML.dll']],
  ])('refuses a zip holding a name %s, leaving nothing', async (_what, names) => {
    const entries = [{ name: 'llama-server.exe', content: 'MZ' }, ...names.map((name) => ({ name, content: 'MZ' }))]
    const err = await refused(await archive('dup.zip', await zipWithNames(entries)))
    expect(err).toBeInstanceOf(UnsafeArchiveError)
    expect(err.message).toBe(`refused dup.zip: its entry "${names[1]}" ${TWICE}`)
  })

  it('calls a cut or garbled archive damaged, leaving nothing', async () => {
    const whole = rawTarGz([{ name: 'llama/x', type: 'file', content: 'x'.repeat(100_000) }])
    const cut = whole.subarray(0, whole.length - 40)
    const cases = [
      ['cut.tar.gz', cut],
      ['junk.tar.gz', randomBytes(5000)],
      ['junk.zip', randomBytes(5000)],
    ] as const
    for (const [name, bytes] of cases) {
      const err = await refused(await archive(name, bytes))
      expect(err, name).toBeInstanceOf(DamagedArchiveError)
      expect(err.message.startsWith(`cannot read ${name} (`), name).toBe(true)
    }
  })
})
