import { request } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EndpointRequestFigures } from '../contract/endpoint'
import { checkAccess } from './access'
import { Endpoint } from './endpoint-listener'
import type { FakeBackend } from '../../test/support/endpoint/fake-backend'
import { scheduledBackend } from '../../test/helpers/scheduled-backend'
import { serverStatus } from '../../test/helpers/server-status'

interface Answer {
  readonly status: number
  readonly body: string
}

function send(port: number, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? '' : JSON.stringify(body)
    const req = request({ host: '127.0.0.1', port, method, path, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(payload)
  })
}

const chat = (port: number, model: string | undefined, stream = false): Promise<Answer> =>
  send(port, 'POST', '/v1/chat/completions', { model, stream, messages: [{ role: 'user', content: 'hi' }] })
const errorOf = (a: Answer): { message: string; type: string; code: unknown } =>
  (JSON.parse(a.body) as { error: { message: string; type: string; code: unknown } }).error

describe('the endpoint in front of the server (in-process fakes)', () => {
  let backend: FakeBackend
  let endpoint: Endpoint
  let port: number
  const figures: EndpointRequestFigures[] = []

  beforeEach(async () => {
    backend = scheduledBackend(['a', 'b', 'c', 'broken'])
    backend.broken.add('broken')
    await backend.start()
    backend.ready('a')
    endpoint = new Endpoint({ host: '127.0.0.1', port: 0, apiKey: null }, backend)
    const listened = await endpoint.listen()
    if (!listened.ok) throw new Error(listened.error)
    port = listened.status.port
    figures.length = 0
    endpoint.on('request', (f) => figures.push(f))
  })
  afterEach(async () => {
    await endpoint.close()
    await backend.close()
  })

  it('lists every profile with the active one marked', async () => {
    const answer = await send(port, 'GET', '/v1/models')
    expect(answer.status).toBe(200)
    const list = JSON.parse(answer.body) as { object: string; data: { id: string; name: string; active: boolean }[] }
    expect(list.object).toBe('list')
    expect(list.data.map((m) => [m.id, m.name, m.active])).toEqual([
      ['a', 'Profile a', true],
      ['b', 'Profile b', false],
      ['c', 'Profile c', false],
      ['broken', 'Profile broken', false],
    ])
  })

  it('answers a request for the active profile at once, with the server key and no switch; an unnamed model means the active one', async () => {
    const answer = await chat(port, 'a')
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toMatchObject({ profile: 'a', auth: 'Bearer upstream-key' })
    expect(JSON.parse((await chat(port, undefined)).body)).toMatchObject({ profile: 'a' })
    expect(JSON.parse((await chat(port, 'Profile A')).body)).toMatchObject({ profile: 'a' }) // by name, any case
    expect(backend.switches).toEqual([])
    expect(figures[0]).toMatchObject({
      profileId: 'a',
      path: '/v1/chat/completions',
      status: 200,
      stream: false,
      predictedTokens: 4,
      predictedTokensPerSecond: 40,
      promptTokens: 3,
    })
  })

  it("gives each request the GPU's energy over the time the server worked on it, and null without an energy source", async () => {
    await chat(port, 'a')
    expect(figures[0]?.energyJ).toBeNull()
    const spans: (readonly [number, number])[] = []
    backend.energyJ = (fromMs, toMs) => {
      spans.push([fromMs, toMs])
      return 42.5
    }
    await chat(port, 'a')
    const f = figures[1]!
    expect(f.energyJ).toBe(42.5)
    expect(spans).toHaveLength(1)
    const [fromMs, toMs] = spans[0]!
    expect(toMs).toBe(f.time) // the span ends with the answer, in epoch ms like the meter's samples
    expect(toMs - fromMs).toBeLessThanOrEqual(Math.ceil(f.durationMs - f.heldMs))
  })

  it('refuses an unknown model with an OpenAI-style 404 that lists the profiles', async () => {
    const answer = await chat(port, 'gpt-4o')
    expect(answer.status).toBe(404)
    expect(errorOf(answer)).toMatchObject({ type: 'not_found_error', code: 'model_not_found' })
    expect(errorOf(answer).message).toContain('"a", "b", "c", "broken"')
  })

  it('switches for a request that names another profile, holding it (and others for it) until ready', async () => {
    let open!: () => void
    backend.gate = new Promise((r) => (open = r))
    const held = [chat(port, 'b'), chat(port, 'b'), chat(port, 'b', true)]
    await waitFor(() => endpoint.status().held === 3)
    open()
    const answers = await Promise.all(held)
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200])
    expect(JSON.parse(answers[0]?.body as string)).toMatchObject({ profile: 'b' })
    expect(answers[2]?.body).toContain('"profile":"b"')
    expect(backend.switches).toEqual(['b']) // one switch for the three
    expect(figures.every((f) => f.heldMs > 0)).toBe(true)
  })

  it('with switching on request off, refuses another profile with a 409 naming the active one', async () => {
    backend.settingsValue = { ...backend.settingsValue, switchOnRequest: false }
    const answer = await chat(port, 'b')
    expect(answer.status).toBe(409)
    expect(errorOf(answer)).toMatchObject({ type: 'conflict_error', code: 'switch_off' })
    expect(errorOf(answer).message).toContain('runs profile "a"')
    expect(backend.switches).toEqual([])
  })

  it('gives the held requests the reason a profile failed to start', async () => {
    const answers = await Promise.all([chat(port, 'broken'), chat(port, 'broken')])
    for (const a of answers) {
      expect(a.status).toBe(503)
      expect(errorOf(a).message).toBe(
        'Profile "broken" failed to start: Model file missing for broken; fix the profile, or send the request for another one.',
      )
    }
  })

  it('serves competing switches one after the other: a later request for another profile waits for its turn', async () => {
    let open!: () => void
    backend.gate = new Promise((r) => (open = r))
    const forB = chat(port, 'b')
    await waitFor(() => endpoint.status().held === 1)
    const forC = chat(port, 'c')
    await waitFor(() => endpoint.status().held === 2)
    open()
    const [b, c] = await Promise.all([forB, forC])
    expect(JSON.parse(b.body)).toMatchObject({ profile: 'b' })
    expect(JSON.parse(c.body)).toMatchObject({ profile: 'c' })
    expect(backend.switches).toEqual(['b', 'c'])
  })

  it('bounds the queue and the wait: an OpenAI-style error, never a hang', async () => {
    backend.settingsValue = { ...backend.settingsValue, heldRequestsMax: 2, heldRequestWaitS: 1 }
    backend.gate = new Promise(() => {}) // this switch never ends
    const held = [chat(port, 'b'), chat(port, 'b')]
    await waitFor(() => endpoint.status().held === 2)
    const refused = await chat(port, 'b')
    expect(refused.status).toBe(503)
    expect(errorOf(refused).code).toBe('queue_full')
    for (const a of await Promise.all(held)) {
      expect(a.status).toBe(503)
      expect(errorOf(a)).toMatchObject({ type: 'unavailable_error', code: 'wait_timeout' })
    }
    expect(endpoint.status().held).toBe(0)
  })

  it('passes a stream through as it comes, and ends it with an error event when the server breaks mid-stream', async () => {
    const upstream = backend.upstreams.get('a')
    if (!upstream) throw new Error('no upstream')
    upstream.behaviour = 'wait-for-release'
    const events: string[] = []
    const ended = new Promise<void>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' } },
        (res) => {
          expect(res.headers['content-type']).toContain('text/event-stream')
          res.setEncoding('utf8')
          res.on('data', (c: string) => {
            events.push(c)
            if (events.length === 1) upstream.release() // the first event came through before the server sent the second
          })
          res.on('end', resolve)
        },
      )
      req.on('error', reject)
      req.end(JSON.stringify({ model: 'a', stream: true }))
    })
    await ended
    expect(events[0]).toContain('"n":1')
    expect(events.join('')).toContain('[DONE]')
    expect(figures.at(-1)).toMatchObject({ stream: true, predictedTokens: 4 })
    expect(figures.at(-1)?.timeToFirstTokenMs).toBeGreaterThan(0)

    upstream.behaviour = 'break-mid-stream'
    const broken = await chat(port, 'a', true)
    expect(broken.status).toBe(200)
    const lines = broken.body.split('\n').filter((l) => l.startsWith('data: '))
    expect(lines[0]).toContain('"n":1')
    expect(JSON.parse((lines.at(-1) as string).slice(6))).toMatchObject({ error: { type: 'server_error', code: 'upstream_broken' } })
  })

  it('after a stream broke mid-answer, a request reset on the same server waits for it and is not taken for the crash', async () => {
    const upstream = backend.upstreams.get('a')
    if (!upstream) throw new Error('no upstream')
    upstream.behaviour = 'break-mid-stream'
    expect((await chat(port, 'a', true)).body).toContain('upstream_broken')
    // Sent before the server's exit is seen (a loaded machine): reset unread, not a crash of its own.
    upstream.behaviour = 'reset-once'
    const next = await chat(port, 'a')
    expect(next.status, next.body).toBe(200)
    // Its body is not refused as the one that crashed the model.
    expect((await chat(port, 'a')).status).toBe(200)
  })

  it('aborts the server request when the client goes away mid-stream', async () => {
    const upstream = backend.upstreams.get('a')
    if (!upstream) throw new Error('no upstream')
    upstream.behaviour = 'wait-for-release'
    await new Promise<void>((resolve) => {
      const req = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/v1/chat/completions', headers: { 'content-type': 'application/json' } },
        (res) => {
          res.once('data', () => {
            req.destroy()
            resolve()
          })
        },
      )
      req.on('error', () => {})
      req.end(JSON.stringify({ model: 'a', stream: true }))
    })
    await waitFor(() => upstream.aborted === 1)
  })

  it('holds requests while the server restarts after a crash, then sends them on', async () => {
    backend.setState(serverStatus('backoff', { profileId: 'a' }))
    const held = chat(port, 'a')
    await waitFor(() => endpoint.status().held === 1)
    backend.ready('a')
    expect((await held).status).toBe(200)
    expect(backend.switches).toEqual([])
  })

  it('answers /health at once: 200 when ready, 503 while a switch runs', async () => {
    expect((await send(port, 'GET', '/health')).status).toBe(200)
    backend.gate = new Promise(() => {})
    void chat(port, 'b').catch(() => {})
    await waitFor(() => endpoint.status().held === 1)
    const loading = await send(port, 'GET', '/health')
    expect(loading.status).toBe(503)
  })
})

describe('who may use the endpoint', () => {
  const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({ socket: { remoteAddress }, headers }) as never

  it('lets this machine in without a key and refuses other machines', () => {
    expect(() => checkAccess(req('127.0.0.1'), '/v1/models', null)).not.toThrow()
    expect(() => checkAccess(req('::ffff:127.0.0.1'), '/v1/models', null)).not.toThrow()
    expect(() => checkAccess(req('::1'), '/v1/models', null)).not.toThrow()
    expect(() => checkAccess(req('192.168.1.20'), '/v1/models', null)).toThrow(/other machines are refused.*API key/)
  })

  it('with a key, asks it of everyone except for /health', () => {
    expect(() => checkAccess(req('192.168.1.20'), '/v1/models', 'k3y')).toThrow(/invalid or missing API key/)
    expect(() => checkAccess(req('127.0.0.1', { authorization: 'Bearer nope' }), '/v1/models', 'k3y')).toThrow(/invalid or missing API key/)
    expect(() => checkAccess(req('192.168.1.20', { authorization: 'Bearer k3y' }), '/v1/models', 'k3y')).not.toThrow()
    expect(() => checkAccess(req('192.168.1.20'), '/health', 'k3y')).not.toThrow()
  })
})

describe('the endpoint port', () => {
  it('refuses a port another program holds, naming it (Linux) and offering a free port', async () => {
    const backend = scheduledBackend([])
    const first = new Endpoint({ host: '127.0.0.1', port: 0, apiKey: null }, backend)
    const listened = await first.listen()
    if (!listened.ok) throw new Error(listened.error)
    const second = new Endpoint({ host: '127.0.0.1', port: listened.status.port, apiKey: null }, backend)
    const refused = await second.listen()
    expect(refused.ok).toBe(false)
    if (refused.ok) return
    expect(refused.error).toContain(`port ${listened.status.port} on 127.0.0.1 is already in use by `)
    if (process.platform === 'linux') expect(refused.error).toContain(`(pid ${process.pid})`)
    expect(refused.error).toMatch(/use port (\d+) \(free now\): .*llama-tray settings set port \1, or start llama-tray serve --port \1$/)
    expect(refused.freePort).not.toBe(listened.status.port)
    await second.close()
    await first.close()
  })

  it('refuses a host other machines reach without an API key', async () => {
    const refused = await new Endpoint({ host: '0.0.0.0', port: 0, apiKey: null }, scheduledBackend([])).listen()
    expect(refused).toMatchObject({ ok: false })
    if (!refused.ok) expect(refused.error).toMatch(/set an API key/)
  })
})

async function waitFor(predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 5))
  }
}
