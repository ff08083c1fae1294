import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { httpRequest } from './http-request'

let server: Server
let origin = ''

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/hang') return // never answers
    if (req.url === '/big') return void res.end('x'.repeat(10_000))
    let body = ''
    req.on('data', (c: Buffer) => (body += c.toString()))
    req.on('end', () => {
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ method: req.method, body, auth: req.headers.authorization ?? null, connection: req.headers.connection }))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

describe('httpRequest', () => {
  it('sends the method, headers and body on a connection it closes, and gives back status and body', async () => {
    const r = await httpRequest({
      url: `${origin}/x`,
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: '{"a":1}',
      timeoutMs: 10_000,
    })
    expect(r.kind).toBe('response')
    if (r.kind !== 'response') return
    expect(r.status).toBe(200)
    expect(JSON.parse(r.body.toString())).toEqual({ method: 'POST', body: '{"a":1}', auth: 'Bearer k', connection: 'close' })
    expect((await httpRequest({ url: `${origin}/missing`, timeoutMs: 10_000 })).kind === 'response').toBe(true)
  })

  it('fails as a value: timeout, abort, too large, nothing listening, bad URL', async () => {
    expect(await httpRequest({ url: `${origin}/hang`, timeoutMs: 50 })).toMatchObject({ kind: 'failed', reason: 'timeout' })
    const ac = new AbortController()
    const pending = httpRequest({ url: `${origin}/hang`, timeoutMs: 10_000, signal: ac.signal })
    ac.abort()
    expect(await pending).toMatchObject({ kind: 'failed', reason: 'aborted' })
    expect(await httpRequest({ url: `${origin}/big`, timeoutMs: 10_000, maxBytes: 100 })).toMatchObject({
      kind: 'failed',
      reason: 'too-large',
    })
    const closed = createServer()
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((r) => closed.close(() => r()))
    expect(await httpRequest({ url: `http://127.0.0.1:${port}/`, timeoutMs: 10_000 })).toMatchObject({
      kind: 'failed',
      reason: 'network',
      detail: 'ECONNREFUSED',
    })
    expect(await httpRequest({ url: 'not a url', timeoutMs: 10 })).toMatchObject({ kind: 'failed', reason: 'bad-url' })
  })
})
