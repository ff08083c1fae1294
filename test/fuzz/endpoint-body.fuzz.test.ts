import fc from 'fast-check'
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LlamaTrayCore } from '../../app/core/llama-tray-core'
import { formatCommandLine } from '../../app/lib/command-line'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { isRunning } from '../helpers/processes'
import { FUZZ_RUNS, WorstCase } from './fuzz-runs'

// Issue #42: the endpoint's body handling against the real llama-server. Random and hostile bodies (not JSON, bad
// UTF-8, deep nesting, huge numbers, wrong types, truncated, odd content types) go through the endpoint; every answer
// is a normal one or an OpenAI-shaped error, llama-server keeps its pid (no crash, no restart), and this process's
// memory stays bounded. Seeded and bounded in count: the same bodies every run.
const SEED = Number(process.env.FUZZ_SEED ?? 4242)
const RUNS = Math.min(FUZZ_RUNS, 1000)
const PATHS = ['/v1/chat/completions', '/v1/completions', '/completion'] as const
const CONTENT_TYPES = ['application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded'] as const

const chat = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  model: 'alpha',
  messages: [{ role: 'user', content: 'hi' }],
  prompt: 'hi',
  max_tokens: 1,
  n_predict: 1,
  ...extra,
})
const bytes = (text: string): Buffer => Buffer.from(text, 'utf8')

/** The hostile shapes, each a body's bytes. */
const notJson = fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b))
const badUtf8 = fc
  .constantFrom([0xff], [0xfe, 0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc0, 0xaf])
  .map((bad) =>
    Buffer.concat([bytes('{"model":"alpha","max_tokens":1,"messages":[{"role":"user","content":"a'), Buffer.from(bad), bytes('"}]}')]),
  )
const deep = fc.tuple(fc.integer({ min: 100, max: 200_000 }), fc.constantFrom('[', '{"a":')).map(([depth, open]) => {
  const close = open === '[' ? ']' : '}'
  return bytes(
    `{"model":"alpha","max_tokens":1,"messages":[{"role":"user","content":"hi"}],"x":${open.repeat(depth)}1${close.repeat(depth)}}`,
  )
})
const hugeNumber = fc.constantFrom('1e308', '-1e308', '1e400', '99999999999999999999999999', '-0', '0.0000000000000000000001', 'NaN')
const huge = fc
  .tuple(
    fc.constantFrom('max_tokens', 'n_predict', 'temperature', 'top_k', 'top_p', 'seed', 'n_probs', 'min_keep', 'n_keep', 'logprobs'),
    hugeNumber,
  )
  .map(([field, n]) => bytes(JSON.stringify(chat({ max_tokens: 1, n_predict: 1 })).replace(/}$/, `,"${field}":${n}}`)))
const wrongType = fc
  .tuple(
    fc.constantFrom('model', 'messages', 'prompt', 'max_tokens', 'stream', 'stop', 'temperature', 'tools', 'response_format', 'logit_bias'),
    fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.string({ maxLength: 20 }),
      fc.constant([]),
      fc.constant({}),
      fc.constant([[1]]),
    ),
  )
  .map(([field, value]) => bytes(JSON.stringify(chat({ [field]: value }))))
const wrongMessages = fc
  .oneof(
    fc.constant([{ role: 1, content: {} }]),
    fc.constant([{ content: 'no role' }]),
    fc.constant([{ role: 'user' }]),
    fc.constant([{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:,' } }] }]),
    fc.constant([{ role: 'assistant', content: null, tool_calls: 'x' }]),
    fc.array(fc.json(), { maxLength: 4 }).map((a) => a.map((j) => JSON.parse(j) as unknown)),
  )
  .map((messages) => bytes(JSON.stringify(chat({ messages }))))
const truncated = fc.tuple(fc.constantFrom(...PATHS), fc.double({ min: 0, max: 1, noNaN: true })).map(([, at]) => {
  const whole = bytes(JSON.stringify(chat({ temperature: 0.5, stop: ['x'] })))
  return whole.subarray(0, Math.floor(whole.length * at))
})
const randomJson = fc.json({ maxDepth: 6 }).map((j) => {
  const value = JSON.parse(j) as unknown
  // A random object with the model named and a token cap (so that a normal answer stays short), or any JSON value.
  return bytes(
    JSON.stringify(
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? { ...value, model: 'alpha', max_tokens: 1, n_predict: 1 }
        : value,
    ),
  )
})
const streamed = fc.boolean().map((s) => bytes(JSON.stringify(chat({ stream: s, max_tokens: 2, n_predict: 2 }))))

const body = fc.oneof(notJson, badUtf8, deep, huge, wrongType, wrongMessages, truncated, randomJson, streamed)

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true })

/** The oracle: whether a body is UTF-8 JSON that a parser takes (V8's throws on very deep nesting). */
function isJson(payload: Buffer): boolean {
  try {
    JSON.parse(fatalUtf8.decode(payload))
    return true
  } catch {
    return false
  }
}

interface Answer {
  readonly status: number
  readonly contentType: string
  readonly text: string
}

function send(port: number, path: string, contentType: string, payload: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent: false,
        headers: { 'content-type': contentType, 'content-length': payload.length },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        )
        res.on('error', reject)
      },
    )
    req.setTimeout(60_000, () => req.destroy(new Error(`no answer within 60 s to a ${payload.length}-byte body on ${path}`)))
    req.on('error', reject)
    req.end(payload)
  })
}

/** An error in the OpenAI shape: {"error": {"message": "...", "type": "..."}}. */
function expectOpenAiError(answer: Answer, what: string): void {
  let parsed: { error?: { message?: unknown; type?: unknown } }
  try {
    parsed = JSON.parse(answer.text) as typeof parsed
  } catch {
    throw new Error(`${what}: HTTP ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)}`)
  }
  expect(typeof parsed.error?.message, `${what}: ${answer.text.slice(0, 300)}`).toBe('string')
  expect(typeof parsed.error?.type, `${what}: ${answer.text.slice(0, 300)}`).toBe('string')
}

/** A normal answer: JSON, or a stream of SSE events ending in [DONE] or an error event. */
function expectNormalAnswer(answer: Answer, what: string): void {
  if (/text\/event-stream/.test(answer.contentType)) {
    const events = answer.text.split('\n\n').filter((e) => e.startsWith('data: '))
    expect(events.length, what).toBeGreaterThan(0)
    const last = events.at(-1)!.slice('data: '.length)
    if (last !== '[DONE]') expect(JSON.parse(last), `${what}: ${last.slice(0, 300)}`).toBeTypeOf('object')
    return
  }
  expect(() => JSON.parse(answer.text) as unknown, `${what}: ${answer.text.slice(0, 300)}`).not.toThrow()
}

describe('fuzzing the endpoint with hostile bodies (the real llama-server)', () => {
  let core: LlamaTrayCore
  let home: string
  let port: number
  const pids = new Set<number>()

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'llama-tray-endpoint-fuzz-'))
    core = await LlamaTrayCore.create({ home, telemetry: null, supervisor: { readyTimeoutMs: 60_000 } })
    core.on('server:state-changed', (s) => s.pid && pids.add(s.pid))
    const argv = [llamaServerBin(), '-m', model('tiny-target.gguf'), '-c', '256', '-np', '1', '-t', '1', '--seed', '1']
    const imported = await core.handlers['profiles:import'](formatCommandLine(argv), 'alpha')
    if (!imported.ok) throw new Error(imported.error.sentence)
    const listened = await core.startEndpoint({ port: 0 })
    if (!listened.ok) throw new Error(listened.error)
    port = listened.status.port
    const first = await send(port, '/v1/chat/completions', 'application/json', bytes(JSON.stringify(chat())))
    if (first.status !== 200) throw new Error(`the first request failed: ${first.text}`)
  }, 900_000)

  afterAll(async () => {
    await core.dispose()
    for (const pid of pids) expect(isRunning(pid), `llama-server pid ${pid} left behind`).toBe(false)
    rmSync(home, { recursive: true, force: true })
  })

  it('every answer is normal or an OpenAI-shaped error; the server keeps its pid; our memory stays bounded', async () => {
    const before = core.server.getStatus()
    const pid = before.pid
    expect(pid).not.toBeNull()
    global.gc?.()
    const baselineMiB = process.memoryUsage().rss / 2 ** 20
    let peakMiB = baselineMiB
    const worst = new WorstCase('endpoint bodies against the real llama-server')
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom(...PATHS), fc.constantFrom(...CONTENT_TYPES), async (payload, path, type) => {
        const what = `${payload.length}-byte body (${JSON.stringify(payload.subarray(0, 80).toString('latin1'))}…) as ${type} on ${path}`
        const answer = await worst.measure(what, () => send(port, path, type, payload))
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        peakMiB = Math.max(peakMiB, process.memoryUsage().rss / 2 ** 20)
        // A body that is not JSON (empty, not UTF-8, not parseable, too deep) is the client's error: a 400 of ours,
        // never llama-server's 500 with its parser's words. What the JSON means is llama-server's to judge.
        if (!isJson(payload)) expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBe(400)
        if (answer.status >= 400) expectOpenAiError(answer, what)
        else {
          expect(answer.status, what).toBe(200)
          expectNormalAnswer(answer, what)
        }
        // No crash and no restart: the same llama-server answered this body.
        expect(core.server.getStatus(), what).toMatchObject({ state: 'ready', pid, restarts: before.restarts })
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    worst.report()
    if (process.env.FUZZ_REPORT)
      console.log(
        `statuses: ${JSON.stringify(Object.fromEntries(statuses))}; RSS ${baselineMiB.toFixed(0)} → peak ${peakMiB.toFixed(0)} MiB`,
      )
    // A sanity bound (the bodies are at most a few hundred KB each): a leak of the bodies or answers would pass it.
    expect(peakMiB - baselineMiB).toBeLessThan(256)
  }, 300_000)
})
