import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServerStatus } from '../contract/server-state'
import { LlamaTrayCore } from '../core/llama-tray-core'
import { formatCommandLine } from '../lib/command-line'
import { FAKE_SERVER } from '../../test/helpers/paths'
import { isRunning } from '../../test/helpers/processes'

function post(port: number, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json' }
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/completion', agent: false, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

// Issue #42, finding 3: a request that crashed llama-server was held and sent again to every restart, until the
// crashloop. The real server's crash needs a body nested 10^6 deep, which the endpoint now refuses (400) before
// any server sees it, so the fake server plays a server that crashes on one body ("crash-on-body").
describe('a request the server crashed on (fake server)', () => {
  let core: LlamaTrayCore
  let home: string
  let port: number
  const states: ServerStatus[] = []
  const pids = new Set<number>()

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'llama-tray-poison-'))
    core = await LlamaTrayCore.create({ home, telemetry: null })
    core.on('server:state-changed', (s) => {
      states.push(s)
      if (s.pid) pids.add(s.pid)
    })
    const args = [FAKE_SERVER, '--fake-mode', 'crash-on-body', '--fake-crash-on', 'POISON']
    const imported = await core.handlers['profiles:import'](formatCommandLine(args), 'fake')
    if (!imported.ok) throw new Error(imported.error.sentence)
    const listened = await core.startEndpoint({ port: 0 })
    if (!listened.ok) throw new Error(listened.error)
    port = listened.status.port
  }, 120_000)

  afterAll(async () => {
    await core.dispose()
    for (const pid of pids) expect(isRunning(pid), `server pid ${pid} left behind`).toBe(false)
    rmSync(home, { recursive: true, force: true })
  })

  it('is answered with an error and not sent again; the same body is refused at once, others are served', async () => {
    const fine = JSON.stringify({ model: 'fake', prompt: 'hi', n_predict: 2 })
    expect((await post(port, fine)).status).toBe(200)
    const firstPid = core.server.getStatus().pid

    const poison = JSON.stringify({ model: 'fake', prompt: 'POISON', n_predict: 2 })
    const crashed = await post(port, poison)
    expect(crashed.status, crashed.body).toBe(502)
    expect(JSON.parse(crashed.body)).toMatchObject({ error: { type: 'server_error', code: 'model_crashed' } })

    // The next request waits for the one restart and is served there.
    const next = await post(port, fine)
    expect(next.status, next.body).toBe(200)
    const restarted = core.server.getStatus()
    expect(restarted).toMatchObject({ state: 'ready', restarts: 1 })
    expect(restarted.pid).not.toBe(firstPid)

    const refused = await post(port, poison)
    expect(refused.status, refused.body).toBe(422)
    expect(JSON.parse(refused.body)).toMatchObject({ error: { type: 'invalid_request_error', code: 'request_crashed_model' } })
    expect((await post(port, fine)).status).toBe(200)
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', pid: restarted.pid, restarts: 1 })
    expect(states.some((s) => s.state === 'crashloop')).toBe(false)
  }, 120_000)
})
