import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FAKE_SERVER } from '../../test/helpers/paths'
import { findFreePort } from './free-port'
import { withoutListenFlags, type ListenPlan } from './launch-args'
import { ServerSupervisor } from './supervisor'

describe('where the server listens (the listen plan, with the fake server)', () => {
  const cleanups: (() => Promise<void> | void)[] = []
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c()
  })
  const supervisor = (plan: ListenPlan): ServerSupervisor => {
    const home = mkdtempSync(join(tmpdir(), 'llama-tray-listen-'))
    const s = new ServerSupervisor({ home, listen: () => plan, readyTimeoutMs: 20_000 })
    cleanups.push(async () => {
      await s.dispose()
      rmSync(home, { recursive: true, force: true })
    })
    return s
  }

  it('drops --host and --port for the private plan, keeping the rest', () => {
    expect(withoutListenFlags(['-m', 'x.gguf', '--host', '0.0.0.0', '--port=8081', '--port', '9000', '-c', '4096'])).toEqual([
      '-m',
      'x.gguf',
      '-c',
      '4096',
    ])
  })

  it('puts a profile without --port on the stable port, and one with --port where it says', async () => {
    const stable = await findFreePort()
    const s = supervisor({ kind: 'port', port: stable })
    expect((await s.start({ profileId: 'a', exe: FAKE_SERVER, args: [] })).port).toBe(stable)
    const own = await findFreePort()
    expect((await s.start({ profileId: 'b', exe: FAKE_SERVER, args: ['--port', String(own)] })).port).toBe(own)
  })

  it('behind the endpoint, listens on a private loopback port whatever the profile says', async () => {
    const s = supervisor({ kind: 'private' })
    const status = await s.start({ profileId: 'a', exe: FAKE_SERVER, args: ['--host', '0.0.0.0', '--port', '8080'] })
    expect(status).toMatchObject({ state: 'ready', host: '127.0.0.1' })
    expect(status.port).not.toBe(8080)
  })

  it('refuses a taken stable port, naming its holder and a port that is free now', async () => {
    const holder: Server = createServer()
    const port = await new Promise<number>((resolve) =>
      holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)),
    )
    cleanups.push(() => void holder.close())
    const status = await supervisor({ kind: 'port', port }).start({ profileId: 'a', exe: FAKE_SERVER, args: [] })
    expect(status.state).toBe('errored')
    expect(status.lastExit?.kind).toBe('port-in-use')
    expect(status.lastExit?.reason).toContain(`port ${port} on 127.0.0.1 is already in use by `)
    if (process.platform === 'linux') expect(status.lastExit?.reason).toContain(`(pid ${process.pid})`)
    expect(status.lastExit?.hint).toMatch(/set Settings → Port to (\d+) \(free now\), or run llama-tray settings set port \1$/)
  })
})
