import { request, type IncomingHttpHeaders } from 'node:http'
import { hostname } from 'node:os'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Endpoint } from './endpoint-listener'
import type { FakeBackend } from '../../test/support/endpoint/fake-backend'
import { scheduledBackend } from '../../test/helpers/scheduled-backend'

interface Answer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

const MIB = 1024 * 1024
const CHAT = JSON.stringify({ model: 'a', messages: [{ role: 'user', content: 'hi' }] })

/** One request as a browser or a hostile client sends it: any method, any headers, a body given whole or as a generator of chunks. */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body: string | Buffer | (() => Buffer | null) = '',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent: false, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    req.on('error', reject)
    if (typeof body !== 'function') return void req.end(body)
    // A streamed body: chunks until the generator says stop (null) or the answer came.
    let answered = false
    req.once('response', () => (answered = true))
    const pump = (): void => {
      for (;;) {
        if (answered) return void req.end()
        const chunk = body()
        if (chunk === null) return void req.end()
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
    }
    pump()
  })
}

const errorOf = (a: Answer): { message: string; type: string; code: unknown } =>
  (JSON.parse(a.body) as { error: { message: string; type: string; code: unknown } }).error
const corsHeaders = (a: Answer): string[] => Object.keys(a.headers).filter((k) => k.startsWith('access-control-'))
const oneSentence = (message: string): void => {
  expect(message).toMatch(/^[A-Z].*\.$/)
  expect(message.split(/\.\s/)).toHaveLength(1)
}

describe('the endpoint against hostile input (real HTTP on loopback, in-process fakes)', () => {
  let backend: FakeBackend
  let endpoint: Endpoint
  let port: number

  beforeEach(async () => {
    backend = scheduledBackend(['a', 'b'])
    await backend.start()
    backend.ready('a')
    endpoint = new Endpoint({ host: '127.0.0.1', port: 0, apiKey: null }, backend)
    const listened = await endpoint.listen()
    if (!listened.ok) throw new Error(listened.error)
    port = listened.status.port
  })
  afterEach(async () => {
    await endpoint.close()
    await backend.close()
  })

  describe('web pages on other origins (CORS)', () => {
    const EVIL = 'https://evil.example'

    it("does not pass on llama-server's grant: a page cannot read /health or an answer", async () => {
      const health = await send(port, 'GET', '/health', { origin: EVIL })
      expect(health.status).toBe(200)
      expect(corsHeaders(health)).toEqual([])
      const props = await send(port, 'GET', '/props', { origin: EVIL })
      expect(corsHeaders(props)).toEqual([])
    })

    it('answers a preflight itself, without a grant, and never asks llama-server', async () => {
      const preflight = await send(port, 'OPTIONS', '/v1/chat/completions', {
        origin: EVIL,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      })
      expect(preflight.status).toBe(204)
      expect(corsHeaders(preflight)).toEqual([])
    })

    it('refuses a completion (which may switch profiles) from a page whose origin is not allowed, with one sentence', async () => {
      for (const [path, model] of [
        ['/v1/chat/completions', 'a'],
        ['/v1/chat/completions', 'b'],
        ['/completion', undefined],
      ] as const) {
        // text/plain is what a page may send without a preflight.
        const answer = await send(
          port,
          'POST',
          path,
          { origin: EVIL, 'content-type': 'text/plain' },
          JSON.stringify({ model, prompt: 'hi' }),
        )
        expect(answer.status).toBe(403)
        expect(corsHeaders(answer)).toEqual([])
        expect(errorOf(answer)).toMatchObject({ type: 'permission_error', code: 'origin_not_allowed' })
        expect(errorOf(answer).message).toContain('endpointAllowedOrigins')
        oneSentence(errorOf(answer).message)
      }
      expect(backend.switches).toEqual([])
    })

    it('grants the origins the user allowed (and only the grant, no credentials), preflight included', async () => {
      backend.settingsValue = { ...backend.settingsValue, endpointAllowedOrigins: ['https://chat.example/'] }
      const answer = await send(
        port,
        'POST',
        '/v1/chat/completions',
        { origin: 'https://chat.example', 'content-type': 'application/json' },
        CHAT,
      )
      expect(answer.status).toBe(200)
      expect(answer.headers['access-control-allow-origin']).toBe('https://chat.example')
      expect(corsHeaders(answer)).toEqual(['access-control-allow-origin'])
      const preflight = await send(port, 'OPTIONS', '/v1/chat/completions', {
        origin: 'https://chat.example',
        'access-control-request-headers': 'authorization, x-stainless-os',
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers).toMatchObject({
        'access-control-allow-origin': 'https://chat.example',
        'access-control-allow-headers': 'authorization, x-stainless-os',
      })
      expect((await send(port, 'POST', '/v1/chat/completions', { origin: EVIL, 'content-type': 'application/json' }, CHAT)).status).toBe(
        403,
      )
    })

    it('lets clients that are not pages (no Origin) in as before', async () => {
      expect((await send(port, 'POST', '/v1/chat/completions', { 'content-type': 'application/json' }, CHAT)).status).toBe(200)
    })
  })

  describe('DNS rebinding (the Host header)', () => {
    it("refuses a Host that is not this listener's, on every path, /health included", async () => {
      for (const [method, path] of [
        ['GET', '/health'],
        ['GET', '/v1/models'],
        ['POST', '/v1/chat/completions'],
        ['OPTIONS', '/v1/chat/completions'],
      ] as const) {
        const answer = await send(
          port,
          method,
          path,
          { host: `evil.example:${port}`, 'content-type': 'application/json' },
          method === 'POST' ? CHAT : '',
        )
        expect(answer.status, `${method} ${path}`).toBe(403)
        expect(errorOf(answer)).toMatchObject({ type: 'permission_error', code: 'host_not_allowed' })
        expect(errorOf(answer).message).toContain('endpointAllowedHosts')
        oneSentence(errorOf(answer).message)
      }
    })

    it('answers its own names and addresses, with or without the port, and the configured names', async () => {
      for (const host of [
        'localhost',
        `localhost:${port}`,
        `127.0.0.1:${port}`,
        '127.0.0.1',
        `[::1]:${port}`,
        'LOCALHOST.',
        `0.0.0.0:${port}`,
      ]) {
        expect((await send(port, 'GET', '/health', { host })).status, host).toBe(200)
      }
      expect((await send(port, 'GET', '/health', { host: `llm.lan:${port}` })).status).toBe(403)
      backend.settingsValue = { ...backend.settingsValue, endpointAllowedHosts: ['LLM.lan'] }
      expect((await send(port, 'GET', '/health', { host: `llm.lan:${port}` })).status).toBe(200)
    })

    it("on a wildcard bind, answers this machine's host name but not another", async () => {
      const lan = new Endpoint({ host: '0.0.0.0', port: 0, apiKey: 'a-long-enough-key' }, backend)
      const listened = await lan.listen()
      if (!listened.ok) throw new Error(listened.error)
      try {
        const lanPort = listened.status.port
        expect((await send(lanPort, 'GET', '/health', { host: `${hostname()}:${lanPort}` })).status).toBe(200)
        expect((await send(lanPort, 'GET', '/health', { host: `evil.example:${lanPort}` })).status).toBe(403)
      } finally {
        await lan.close()
      }
    })
  })

  describe('the request body cap', () => {
    it('refuses a 50 MB prompt by default with a 413 naming the limit and the setting', async () => {
      const prompt = Buffer.concat([Buffer.from('{"model":"a","prompt":"'), Buffer.alloc(50_000_000, 'x'), Buffer.from('"}')])
      const answer = await send(
        port,
        'POST',
        '/completion',
        { 'content-type': 'application/json', 'content-length': String(prompt.length) },
        prompt,
      )
      expect(answer.status).toBe(413)
      expect(errorOf(answer)).toMatchObject({ type: 'invalid_request_error', code: 'body_too_large' })
      expect(errorOf(answer).message).toContain('32 MiB')
      expect(errorOf(answer).message).toContain('endpointMaxBodyMiB')
      oneSentence(errorOf(answer).message)
    })

    it('follows the setting, for a body that declares no length too, and the connection stays usable', async () => {
      backend.settingsValue = { ...backend.settingsValue, endpointMaxBodyMiB: 1 }
      let sent = 0
      const chunk = Buffer.alloc(64 * 1024, 'x')
      const twoMiB = (): Buffer | null => (sent >= 2 * MIB ? null : ((sent += chunk.length), chunk))
      const answer = await send(port, 'POST', '/completion', { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, twoMiB)
      expect(answer.status).toBe(413)
      expect(errorOf(answer).message).toContain('limit of 1 MiB')
      const small = await send(port, 'POST', '/v1/chat/completions', { 'content-type': 'application/json' }, CHAT)
      expect(small.status).toBe(200)
    })

    it('answers while an endless body is still being sent (it does not wait for, or keep, the rest)', async () => {
      backend.settingsValue = { ...backend.settingsValue, endpointMaxBodyMiB: 1 }
      const chunk = Buffer.alloc(64 * 1024, 'x')
      const answer = await send(
        port,
        'POST',
        '/completion',
        { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        () => chunk,
      )
      expect(answer.status).toBe(413)
    })
  })

  // Issue #42, findings 3 and 8: bodies we route were forwarded unread (a 500 with llama-server's parser text, and a
  // body nested 10^6 levels deep that crashed llama-server for every client).
  describe('bodies we route', () => {
    const json = { 'content-type': 'application/json' }
    it.each([
      ['not JSON', Buffer.from('{"model": "a", "messages": [', 'utf8'), /^The request body is not JSON \(/, 'invalid_body'],
      [
        'not UTF-8',
        Buffer.concat([Buffer.from('{"model":"a","messages":[{"role":"user","content":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}]}')]),
        /not valid UTF-8/,
        'invalid_body',
      ],
      [
        'nested 10^6 levels deep',
        Buffer.from(`{"model":"a","messages":[{"role":"user","content":"hi"}],"x":${'['.repeat(1e6)}${']'.repeat(1e6)}}`),
        /nests more than 128 levels deep/,
        'body_too_deep',
      ],
    ])('a body %s is a 400 in the OpenAI error shape, never forwarded', async (_name, body, message, code) => {
      const answer = await send(port, 'POST', '/v1/chat/completions', json, body)
      expect(answer.status).toBe(400)
      const error = errorOf(answer)
      expect(error).toMatchObject({ type: 'invalid_request_error', code })
      expect(error.message).toMatch(message)
      oneSentence(error.message)
      expect((await send(port, 'POST', '/v1/chat/completions', json, CHAT)).status).toBe(200)
    })

    it('brackets inside strings do not count as nesting', async () => {
      const deepText = JSON.stringify({ model: 'a', messages: [{ role: 'user', content: '['.repeat(10_000) + '\\"{' }] })
      expect((await send(port, 'POST', '/v1/chat/completions', json, deepText)).status).toBe(200)
    })
  })
})

describe('an endpoint other machines reach needs a real key', () => {
  it.each([
    ['an empty key', ''],
    ['a key of spaces', '        '],
    ['a short key', 'abc'],
  ])('refuses to listen on 0.0.0.0 with %s, in one sentence', async (_name, apiKey) => {
    const endpoint = new Endpoint({ host: '0.0.0.0', port: 0, apiKey }, scheduledBackend([]))
    const refused = await endpoint.listen()
    await endpoint.close()
    expect(refused.ok).toBe(false)
    if (refused.ok) return
    oneSentence(refused.error)
    expect(refused.error).toMatch(/at least 8 characters/)
  })
})
