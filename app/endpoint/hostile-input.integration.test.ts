import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LlamaTrayCore } from '../core/llama-tray-core'
import { formatCommandLine } from '../lib/command-line'
import { keyFilePath } from '../supervisor/api-key-file'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { isRunning } from '../../test/helpers/processes'
import { runningProcess } from '../../test/helpers/server-status'

const KEY = 'profile-key-4242'
const EVIL = 'https://evil.example'

function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const corsHeaders = (headers: IncomingHttpHeaders): string[] => Object.keys(headers).filter((k) => k.startsWith('access-control-'))

describe('hostile input against the real llama-server behind the endpoint', () => {
  let core: LlamaTrayCore
  let home: string
  let port: number
  const pids = new Set<number>()

  beforeAll(async () => {
    const bin = llamaServerBin()
    home = mkdtempSync(join(tmpdir(), 'llama-tray-hostile-'))
    core = await LlamaTrayCore.create({ home, telemetry: null, supervisor: { readyTimeoutMs: 60_000 } })
    core.on('server:state-changed', (s) => s.pid && pids.add(s.pid))
    const args = [bin, '-m', model('tiny-target.gguf'), '-c', '1024', '-np', '1', '-t', '1', '--api-key', KEY]
    const imported = await core.handlers['profiles:import'](formatCommandLine(args), 'keyed')
    if (!imported.ok) throw new Error(imported.error.sentence)
    const listened = await core.startEndpoint({ port: 0 })
    if (!listened.ok) throw new Error(listened.error)
    port = listened.status.port
  }, 900_000)

  afterAll(async () => {
    await core.dispose()
    for (const pid of pids) expect(isRunning(pid), `llama-server pid ${pid} left behind`).toBe(false)
    rmSync(home, { recursive: true, force: true })
  })

  // Issue #42, findings 3 and 8: a chat request with a field nested 10^6 levels deep crashed llama-server (SIGSEGV)
  // and was replayed to every restart; a body that is not JSON got a 500 with llama-server's parser text.
  it('a body nested 10^6 levels deep, or not JSON, is a 400 from the endpoint; the server never sees it and stays up', async () => {
    const ok = JSON.stringify({ model: 'keyed', max_tokens: 2, messages: [{ role: 'user', content: 'hi' }] })
    expect((await send(port, 'POST', '/v1/chat/completions', { 'content-type': 'application/json' }, ok)).status).toBe(200)
    const pid = core.server.getStatus().pid
    const deep = `{"model":"keyed","max_tokens":2,"messages":[{"role":"user","content":"hi"}],"x":${'['.repeat(1e6)}${']'.repeat(1e6)}}`
    const json = { 'content-type': 'application/json' }
    const refused = await send(port, 'POST', '/v1/chat/completions', json, deep)
    expect(refused.status, refused.body).toBe(400)
    expect(JSON.parse(refused.body)).toMatchObject({ error: { type: 'invalid_request_error', code: 'body_too_deep' } })
    const notJson = await send(port, 'POST', '/v1/chat/completions', json, '{"model":"keyed","messages":[')
    expect(notJson.status, notJson.body).toBe(400)
    expect(JSON.parse(notJson.body)).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_body' } })
    expect((await send(port, 'POST', '/v1/chat/completions', json, ok)).status).toBe(200)
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', pid, restarts: 0 })
  }, 120_000)

  it("llama-server reads the profile's key from the 0600 file, not its command line; the file goes with the server", async () => {
    const chat = JSON.stringify({ model: 'keyed', max_tokens: 2, messages: [{ role: 'user', content: 'hi' }] })
    const answer = await send(port, 'POST', '/v1/chat/completions', { 'content-type': 'application/json' }, chat)
    expect(answer.status, answer.body).toBe(200) // the endpoint sends the key; the server took it from the file
    const status = core.server.getStatus()
    const argv = readFileSync(`/proc/${status.pid}/cmdline`, 'utf8').split('\0')
    expect(argv.join(' ')).not.toContain(KEY)
    const file = keyFilePath(join(home, 'run'))
    expect(argv).toContain(file)
    // Straight to the server: without the key it refuses, so the file's key is in force.
    expect((await send(runningProcess(status).port, 'GET', '/v1/models')).status).toBe(401)
    expect((await send(runningProcess(status).port, 'GET', '/v1/models', { authorization: `Bearer ${KEY}` })).status).toBe(200)

    // llama-server grants any origin; the endpoint passes on none of it and refuses the page's completion.
    expect(corsHeaders((await send(runningProcess(status).port, 'GET', '/health', { origin: EVIL })).headers)).toContain(
      'access-control-allow-origin',
    )
    expect(corsHeaders((await send(port, 'GET', '/health', { origin: EVIL })).headers)).toEqual([])
    expect((await send(port, 'POST', '/v1/chat/completions', { origin: EVIL, 'content-type': 'text/plain' }, chat)).status).toBe(403)
    expect((await send(port, 'GET', '/health', { host: `evil.example:${port}` })).status).toBe(403)

    await core.server.stop()
    expect(existsSync(file)).toBe(false)
  }, 120_000)
})
