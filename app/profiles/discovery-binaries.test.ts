import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findBinaries } from './discovery-binaries'

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe.skipIf(process.platform === 'win32')('findBinaries', () => {
  it("finds llama.cpp's one program (llama) on PATH beside llama-server", async () => {
    const root = mkdtempSync(join(tmpdir(), 'llama-tray-discovery-'))
    made.push(root)
    for (const name of ['llama', 'llama-server']) {
      writeFileSync(join(root, name), '#!/bin/sh\n')
      chmodSync(join(root, name), 0o755)
    }
    const { binaries } = await findBinaries(join(root, 'home'), { platform: 'linux', homedir: join(root, 'nobody'), env: { PATH: root } })
    const onPath = binaries.filter((b) => b.source === 'PATH').map((b) => b.path)
    expect(onPath).toEqual([join(root, 'llama-server'), join(root, 'llama')])
  })
})
