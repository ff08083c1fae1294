import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findFreePort, isPortInUse } from '../supervisor/free-port'
import { LlamaTrayCore } from './llama-tray-core'

describe('the app core opens the endpoint from its settings', () => {
  const homes: string[] = []
  afterEach(() => {
    for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true })
  })

  it('listens on the port setting, follows changes of port and endpoint, and shows the address in the snapshot', async () => {
    const home = mkdtempSync(join(tmpdir(), 'llama-tray-endpoint-setting-'))
    homes.push(home)
    const core = await LlamaTrayCore.create({ home, telemetry: null })
    try {
      const first = await findFreePort()
      expect((await core.handlers['settings:set']({ port: first })).ok).toBe(true)
      const opened = await core.applyEndpointSetting()
      expect(opened).toMatchObject({ ok: true, status: { url: `http://127.0.0.1:${first}/v1`, listening: true } })
      expect(core.snapshot().endpoint).toMatchObject({ port: first, listening: true, held: 0, lastRequest: null })

      const second = await findFreePort()
      await core.handlers['settings:set']({ port: second })
      expect(core.endpointStatus()?.port).toBe(second)
      expect(await isPortInUse(first)).toBe(false)

      await core.handlers['settings:set']({ endpoint: false })
      expect(core.endpointStatus()).toBeNull()
      expect(await isPortInUse(second)).toBe(false)
    } finally {
      await core.dispose()
    }
  })
})
