import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { GenerationTracker } from './generation-tracker'
import { SlotsPoller, type PollOutcome } from './slots-poller'

// A scripted HTTP server: only for what the real llama-server cannot be made
// to do on demand (answer slowly, count requests, check headers).
interface Scripted {
  readonly server: Server
  readonly baseUrl: string
  readonly requests: { time: number; auth: string | undefined }[]
  handler: (req: IncomingMessage, res: ServerResponse) => void
}

const servers: Server[] = []
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections()
    await new Promise((r) => s.close(r))
  }
})

async function scripted(): Promise<Scripted> {
  const state: Scripted = {
    server: createServer((req, res) => {
      state.requests.push({ time: performance.now(), auth: req.headers.authorization })
      state.handler(req, res)
    }),
    baseUrl: '',
    requests: [],
    handler: (_req, res) => res.end('[]'),
  }
  servers.push(state.server)
  await new Promise<void>((r) => state.server.listen(0, '127.0.0.1', r))
  ;(state as { baseUrl: string }).baseUrl = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}`
  return state
}

function busySlot(taskId: number, decoded: number): unknown {
  return {
    id: 0,
    n_ctx: 4096,
    is_processing: true,
    id_task: taskId,
    n_prompt_tokens: 5 + decoded,
    n_prompt_tokens_processed: 5,
    next_token: [{ n_decoded: decoded, n_remain: 100 }],
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** Waits for a condition (a generous sanity deadline: these conditions normally hold within milliseconds). */
async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = performance.now() + timeoutMs
  while (!(await cond())) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`)
    await sleep(10)
  }
}

async function connections(server: Server): Promise<number> {
  return new Promise((r) => server.getConnections((_e, n) => r(n)))
}

describe('SlotsPoller', () => {
  it('polls fast while a slot is busy, slower when idle, and sends the API key', async () => {
    const s = await scripted()
    let busy = true
    const t0 = performance.now()
    s.handler = (_req, res) => {
      const decoded = Math.round((performance.now() - t0) / 10) + 1
      res.end(JSON.stringify(busy ? [busySlot(1, decoded)] : [{ id: 0, n_ctx: 4096, is_processing: false }]))
    }
    const poller = new SlotsPoller({ baseUrl: s.baseUrl, apiKey: 'k1', busyIntervalMs: 100, idleIntervalMs: 400, firstRateDelayMs: 50 })
    const outcomes: PollOutcome[] = []
    poller.on('poll', (o) => outcomes.push(o))
    poller.start()
    await until(() => s.requests.length >= 8, '8 polls while busy')
    const busyCount = s.requests.length
    busy = false
    await until(() => s.requests.length >= busyCount + 4, '4 polls while idle')
    await poller.stop()
    // Timers never fire early: idle gaps are at least the idle interval. Busy gaps follow the busy
    // interval; a loaded machine stretches them, but far less than to the idle pace.
    const gaps = s.requests.slice(1).map((r, i) => r.time - s.requests[i]!.time)
    const busyGaps = gaps.slice(1, busyCount - 1)
    const idleGaps = gaps.slice(busyCount)
    const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
    expect(med(busyGaps)).toBeLessThan(400)
    for (const g of idleGaps) expect(g).toBeGreaterThan(390)
    expect(s.requests.every((r) => r.auth === 'Bearer k1')).toBe(true)
    const rates = outcomes
      .flatMap((o) => (o.kind === 'ok' ? o.slots.map((x) => x.tokensPerSecond) : []))
      .filter((r): r is number => r !== null)
    expect(rates.length).toBeGreaterThan(3)
    for (const r of rates) expect(r).toBeGreaterThan(50) // ~100 tok/s scripted
  })

  it('polls again right after an answer that was in flight when a task started, not at the idle pace', async () => {
    // The race behind a 1.2 s wait seen in CI: an idle poll answered just before the
    // request arrived swallowed the log's poke and scheduled the next poll a second later.
    const s = await scripted()
    s.handler = (_req, res) => setTimeout(() => res.end(JSON.stringify([{ id: 0, n_ctx: 4096, is_processing: false }])), 150)
    const poller = new SlotsPoller({ baseUrl: s.baseUrl, idleIntervalMs: 1000 })
    poller.start()
    await until(() => s.requests.length === 1, 'the first poll') // in flight: answered after 150 ms
    poller.pokeSoon()
    await until(() => s.requests.length === 2, 'the second poll')
    await poller.stop()
    // Right after the 150 ms answer; the lost poke would have waited the idle second after it (≥ 1,150 ms).
    expect(s.requests[1]!.time - s.requests[0]!.time).toBeLessThan(1000)
  })

  it('reports a slow answer as busy (slow), not as down, and keeps the last slots', async () => {
    const s = await scripted()
    let slow = false
    s.handler = (_req, res) => {
      if (slow) setTimeout(() => res.end(JSON.stringify([busySlot(1, 500)])), 2000)
      else res.end(JSON.stringify([busySlot(1, 100)]))
    }
    const tracker = new GenerationTracker({ baseUrl: s.baseUrl, profileId: 'p', busyIntervalMs: 100, slowAfterMs: 300, timeoutMs: 5000 })
    tracker.start()
    await until(() => tracker.snapshot().slots[0]?.state === 'generating', 'a busy slot')
    slow = true
    await until(() => tracker.snapshot().poll.state === 'slow', 'the slow state')
    const snap = tracker.snapshot()
    expect(snap.active).toBe(true)
    expect(snap.poll.state).toBe('slow')
    expect(snap.slots[0]?.state).toBe('generating')
    await tracker.stop()
    await until(async () => (await connections(s.server)) === 0, 'the socket to close') // the server sees the close a moment later
  })

  it('reports a server that is gone as down, and a refused key as unauthorized', async () => {
    const s = await scripted()
    s.handler = (_req, res) => {
      res.statusCode = 401
      res.end('{"error":{"code":401,"message":"Invalid API Key"}}')
    }
    const tracker = new GenerationTracker({ baseUrl: s.baseUrl, profileId: 'p', idleIntervalMs: 50 })
    tracker.start()
    await until(() => tracker.snapshot().poll.state === 'unauthorized', 'unauthorized')
    s.server.closeAllConnections()
    await new Promise((r) => s.server.close(r))
    await until(() => tracker.snapshot().poll.state === 'down', 'down')
    expect(tracker.snapshot().active).toBe(false)
    await tracker.stop()
  })

  it('stops when the signal aborts, with no timer or socket left, even mid-request', async () => {
    const s = await scripted()
    s.handler = () => {} // never answers
    const controller = new AbortController()
    const poller = new SlotsPoller({ baseUrl: s.baseUrl })
    poller.start(controller.signal)
    await until(() => s.requests.length === 1, 'the first poll')
    expect(poller.inFlightForMs()).not.toBeNull()
    expect(await connections(s.server)).toBe(1)
    controller.abort()
    await poller.stop()
    expect(poller.isRunning).toBe(false)
    expect(poller.inFlightForMs()).toBeNull()
    await until(async () => (await connections(s.server)) === 0, 'the socket to close')
    const before = s.requests.length
    await sleep(300)
    expect(s.requests.length).toBe(before)
  })

  it('for a server that sleeps when idle, stops asking after an idle answer until the log pokes it', async () => {
    const s = await scripted()
    s.handler = (_req, res) => res.end(JSON.stringify([{ id: 0, n_ctx: 4096, is_processing: false }]))
    const poller = new SlotsPoller({ baseUrl: s.baseUrl, idleIntervalMs: 20, idleMaxIntervalMs: 20, pollWhenIdle: false })
    poller.start()
    await until(() => s.requests.length === 1, 'the first poll')
    await sleep(300) // fifteen idle intervals: a poller that polls when idle would have asked again
    expect(s.requests.length).toBe(1)
    poller.pokeSoon() // "task started" in the log
    await until(() => s.requests.length === 2, 'the poked poll')
    await sleep(300)
    expect(s.requests.length).toBe(2)
    await poller.stop()
  })

  it('asks nothing while suspended (the server sleeps), abandons a request in flight, and resumes at once', async () => {
    const s = await scripted()
    let answer = true
    s.handler = (_req, res) => {
      if (answer) res.end(JSON.stringify([{ id: 0, n_ctx: 4096, is_processing: false }]))
    }
    const poller = new SlotsPoller({ baseUrl: s.baseUrl, idleIntervalMs: 20, idleMaxIntervalMs: 20 })
    const outcomes: PollOutcome[] = []
    poller.on('poll', (o) => outcomes.push(o))
    poller.start()
    await until(() => s.requests.length >= 3, 'three idle polls')
    answer = false
    const answered = s.requests.length
    // One poll at a time: a request that arrived unanswered is the one in flight.
    await until(() => s.requests.length > answered && poller.inFlightForMs() !== null, 'an unanswered poll in flight')
    poller.suspend()
    poller.pokeSoon() // the log's news while it sleeps changes nothing
    const asked = s.requests.length
    const heard = outcomes.length
    await sleep(300)
    expect(s.requests.length).toBe(asked)
    expect(outcomes.length).toBe(heard) // the abandoned request reports nothing
    expect(poller.isRunning).toBe(true)
    answer = true
    poller.resume()
    await until(() => s.requests.length > asked && outcomes.length > heard, 'a poll after resume')
    expect(outcomes.at(-1)?.kind).toBe('ok')
    await poller.stop()
    expect(poller.inFlightForMs()).toBeNull()
  })

  it('does not start with an already aborted signal', async () => {
    const s = await scripted()
    const poller = new SlotsPoller({ baseUrl: s.baseUrl })
    poller.start(AbortSignal.abort())
    await sleep(100)
    expect(poller.isRunning).toBe(false)
    expect(s.requests.length).toBe(0)
  })
})
