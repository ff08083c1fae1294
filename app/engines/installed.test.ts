import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { addProfile } from '../../test/support/core/tiny-core'
import { listInstalled } from './installed'
import { ENGINE_MANIFEST, enginesDir, type EngineManifest } from './layout'

/** An engine folder as an install leaves it: the binary, then the manifest that makes it an engine. */
async function writeEngine(home: string, id: string, binary: string, installedAt: string): Promise<string> {
  const dir = join(enginesDir(home), id)
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, binary), '#!/bin/sh\necho "version: 9001"\n')
  await chmod(join(dir, binary), 0o755)
  const manifest: EngineManifest = {
    version: 1,
    id,
    tag: id.split('-')[0] as string,
    backend: 'cpu',
    publishedAt: null,
    binary,
    engineVersion: 'version: 9001',
    assets: [],
    installedAt,
  }
  await writeFile(join(dir, ENGINE_MANIFEST), JSON.stringify(manifest))
  return dir
}

describe('the engines list', () => {
  it('shows one-binary installs (llama, llama.exe) beside llama-server ones, with the profiles that use them', async () => {
    const home = await mkdtemp(join(tmpdir(), 'llama-tray-installed-'))
    const one = await writeEngine(home, 'v0.5.0-cpu', 'llama', '2026-12-03T10:00:00.000Z')
    const win = await writeEngine(home, 'v0.5.1-cpu', 'llama.exe', '2026-12-04T10:00:00.000Z')
    const server = await writeEngine(home, 'b7000-cpu', 'llama-server', '2026-12-01T10:00:00.000Z')
    const id = await addProfile(home, 'One binary', [join(one, 'llama'), 'serve', '-m', '/models/x.gguf'])
    const listed = await listInstalled(home)
    expect(listed.map((e) => [e.id, e.path])).toEqual([
      ['v0.5.1-cpu', join(win, 'llama.exe')],
      ['v0.5.0-cpu', join(one, 'llama')],
      ['b7000-cpu', join(server, 'llama-server')],
    ])
    expect(listed.find((e) => e.id === 'v0.5.0-cpu')?.usedBy).toEqual([{ id, name: 'One binary' }])
    expect(listed.find((e) => e.id === 'v0.5.0-cpu')?.version).toBe('version: 9001')
    expect(listed.find((e) => e.id === 'b7000-cpu')?.usedBy).toEqual([])
  })
})
