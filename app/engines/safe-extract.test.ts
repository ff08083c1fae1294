import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile, readlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { linuxTarGz, rawTarGz, windowsZip, zipWithNames } from '../../test/stand-ins/release-archives'
import { extractArchive, UnsafeArchiveError } from './safe-extract'

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
    const tgz = await archive('ok.tar.gz', await linuxTarGz('b1', [{ name: 'llama-server', content: '#!/bin/sh\n', mode: 0o755 }, { name: 'libggml.so.1', content: 'lib', mode: 0o644 }], [{ name: 'libggml.so', target: 'libggml.so.1' }]))
    await extractArchive(tgz, dest)
    expect((await stat(join(dest, 'llama-b1', 'llama-server'))).mode & 0o111).not.toBe(0)
    expect(await readlink(join(dest, 'llama-b1', 'libggml.so'))).toBe('libggml.so.1')
  })

  it('extracts a flat Windows zip', async () => {
    const zip = await archive('ok.zip', await windowsZip([{ name: 'llama-server.exe', content: 'MZ' }, { name: 'ggml-cpu.dll', content: 'dll' }]))
    await extractArchive(zip, dest)
    expect((await readdir(dest)).sort()).toEqual(['ggml-cpu.dll', 'llama-server.exe'])
    expect(await readFile(join(dest, 'llama-server.exe'), 'utf8')).toBe('MZ')
  })

  it.each([
    ['a "../" path', [{ name: '../../evil.txt', type: 'file' as const, content: 'x' }], 'climbs out'],
    ['an absolute path', [{ name: `${'/tmp'}/llama-tray-evil-${process.pid}.txt`, type: 'file' as const, content: 'x' }], 'absolute path'],
    ['a symlink leading out', [{ name: 'llama/lib', type: 'symlink' as const, linkname: '../../../' }, { name: 'llama/lib/evil.txt', type: 'file' as const, content: 'x' }], 'symlink leading outside'],
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
    const zip = await archive('bad.zip', await zipWithNames([{ name: 'ok.txt', content: 'fine' }, { name, content: 'x' }]))
    const err = await extractArchive(zip, dest).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(UnsafeArchiveError)
    expect((err as Error).message).toContain(why)
    expect(await outside()).toEqual([])
    expect(existsSync('/tmp/llama-evil.txt')).toBe(false)
  })
})
