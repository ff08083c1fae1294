import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FAKE_SERVER } from '../../test/helpers/paths'
import { waitUntil } from '../../test/helpers/processes'
import { LOAD_TIMES_FILE } from '../metrics/load-times'
import { LlamaTrayCore } from './llama-tray-core'

// The loading bar's estimate: the core times each launch to ready per profile
// and puts the usual figure in the snapshot while the next launch loads.
// The fake server (test/fixtures) loads for --fake-load-ms, or forever.

const homes: string[] = []
const cores: LlamaTrayCore[] = []
afterEach(async () => {
  for (const c of cores.splice(0)) await c.dispose()
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true })
})

async function core(home: string): Promise<LlamaTrayCore> {
  const c = await LlamaTrayCore.create({ home, telemetry: null, supervisor: { healthIntervalMs: 20 } })
  cores.push(c)
  return c
}

describe('load time estimate', () => {
  it('the first load has no estimate; the next load of the profile shows the last one, also after a restart of the app', async () => {
    const home = mkdtempSync(join(tmpdir(), 'llama-tray-load-'))
    homes.push(home)
    const first = await core(home)
    const starting = first.startSpec({ profileId: 'slow', exe: FAKE_SERVER, args: ['--fake-load-ms', '600'] })
    await waitUntil(() => first.snapshot().server.state === 'loading', 10_000, 'loading')
    expect(first.snapshot().load).toMatchObject({ profileId: 'slow', expectedMs: null, previousLoads: 0 })
    expect((await starting).state).toBe('ready')
    expect(first.snapshot().load).toBeUndefined() // ready: nothing to estimate
    await waitUntil(() => existsSync(join(home, LOAD_TIMES_FILE)), 5000, 'the load time on disk')
    await first.handlers['server:stop']()

    const again = first.startSpec({ profileId: 'slow', exe: FAKE_SERVER, args: ['--fake-mode', 'never-ready'] }).catch(() => null)
    await waitUntil(() => first.snapshot().server.state === 'loading', 10_000, 'loading again')
    const load = first.snapshot().load
    expect(load?.previousLoads).toBe(1)
    expect(load?.expectedMs).toBeGreaterThanOrEqual(600)
    expect(load?.expectedMs).toBeLessThan(60_000)
    expect(load?.startedAt).toBeLessThanOrEqual(Date.now())
    await first.handlers['server:stop']()
    await again
    await first.dispose()
    cores.splice(cores.indexOf(first), 1)

    const next = await core(home)
    const third = next.startSpec({ profileId: 'slow', exe: FAKE_SERVER, args: ['--fake-mode', 'never-ready'] }).catch(() => null)
    await waitUntil(() => next.snapshot().server.state === 'loading', 10_000, 'loading after a restart')
    expect(next.snapshot().load?.expectedMs).toBe(load?.expectedMs)
    await next.handlers['server:stop']()
    await third
  }, 60_000)
})
