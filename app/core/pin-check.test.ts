import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../lib/command-line'
import { fitProfile } from '../profiles/profile-fit'
import { ProfileStore } from '../profiles/store'
import { fakeVramTelemetry } from '../../test/e2e/fake-vram-telemetry'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { LlamaTrayCore } from './llama-tray-core'

const HEADROOM_MIB = 1536 // the settings' default

// A scripted 8 GiB GPU (this machine has none) whose free memory leaves room for the active profile and one pinned one.
describe('profiles:pin against the combined fit (scripted GPU)', () => {
  let home: string
  let core: LlamaTrayCore
  const estimate: Record<string, number> = {}
  let freeMiB = 0

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'llama-tray-pin-check-'))
    const bin = llamaServerBin()
    const files = { big: 'tiny-target.gguf', small: 'tiny-draft.gguf', extra: 'tiny-target-iq.gguf' }
    // The core is made after the estimates, with a GPU sized from them; the profiles go straight into the store.
    const scratch = await LlamaTrayCore.create({ home, telemetry: null })
    for (const [name, file] of Object.entries(files)) {
      const imported = await scratch.handlers['profiles:import'](
        formatCommandLine([bin, '-m', model(file), '-ngl', '99', '-c', '2048']),
        name,
      )
      if (!imported.ok) throw new Error(imported.error.sentence)
      estimate[name] = (await fitProfile(home, name, { freeVramMiB: null, headroomMiB: HEADROOM_MIB })).gpuProcessMiB
    }
    await scratch.dispose()
    await (await ProfileStore.open(home)).setActive('big')
    freeMiB = Math.ceil(HEADROOM_MIB + (estimate.big as number) + (estimate.small as number) + (estimate.extra as number) / 2)
    core = await LlamaTrayCore.create({ home, telemetry: fakeVramTelemetry([freeMiB]) })
  }, 120_000)
  afterAll(async () => {
    await core.dispose()
    rmSync(home, { recursive: true, force: true })
  })

  it('pins what fits beside the active profile and refuses the next, naming which and by how much', async () => {
    const small = await core.handlers['profiles:pin']('small')
    if (!small.ok) throw new Error(small.error.sentence)
    expect(small.value).toMatchObject({ id: 'small', pinned: true })

    const extra = await core.handlers['profiles:pin']('extra')
    const left = freeMiB - HEADROOM_MIB - (estimate.big as number) - (estimate.small as number)
    expect(extra).toEqual({
      ok: false,
      error: expect.objectContaining({
        sentence:
          `Pinning extra needs ${Math.ceil((estimate.extra as number) - left)} MiB more than the ${(left / 1024).toFixed(1)} GiB free ` +
          'beside big and small; unpin another profile or lower -ngl.',
      }),
    })
    expect((await ProfileStore.open(home)).find('extra')?.pinned).toBeUndefined()

    // Unpinned, small makes room for extra.
    expect((await core.handlers['profiles:unpin']('small')).ok).toBe(true)
    expect((await core.handlers['profiles:pin']('extra')).ok).toBe(true)
  }, 60_000)
})
