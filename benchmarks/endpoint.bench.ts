import { Agent, request } from 'node:http'
import type { ServerStatus } from '../app/contract/server-state'
import { DEFAULT_SETTINGS } from '../app/contract/settings'
import type { EndpointBackend } from '../app/endpoint/backend'
import { Endpoint } from '../app/endpoint/endpoint-listener'
import { median, type BenchRow } from './bench-row'
import { startBenchServer } from './bench-server'

/** The endpoint in front of one bare llama-server that is ready: what it adds is the proxy alone. */
function staticBackend(port: number): EndpointBackend {
  const status: ServerStatus = {
    state: 'ready',
    profileId: 'bench',
    pid: process.pid,
    host: '127.0.0.1',
    port,
    exe: null,
    readySince: Date.now(),
    sleepIdleSeconds: null,
    lastExit: null,
    restarts: 0,
  }
  return {
    status: () => status,
    onState: () => () => {},
    profiles: async () => ({ profiles: [{ id: 'bench', name: 'bench' }], activeProfileId: 'bench' }),
    acquire: async () => ({ signal: new AbortController().signal, release: () => {} }),
    switchingTo: () => null,
    upstreamApiKey: async () => null,
    pinned: () => null,
    settings: () => ({ ...DEFAULT_SETTINGS, heldRequestWaitS: 60 }),
  }
}

interface StreamRate {
  /** Tokens per second between the first and the last event, as the client saw them. */
  readonly client: number
  /** What llama-server measured for the same request (its final timings). */
  readonly server: number
}

/** A streamed completion as a client sees it (its own connection: the rate does not count its setup). */
function streamRate(port: number, nPredict: number): Promise<StreamRate> {
  const body = JSON.stringify({ model: 'bench', prompt: 'Hello', n_predict: nPredict, ignore_eos: true, stream: true, cache_prompt: false })
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/completion',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let first: number | null = null
        let last = 0
        let events = 0
        let tail = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => {
          tail = (tail + c).slice(-4000)
          const n = c.split('data: ').length - 1
          if (n === 0) return
          const now = performance.now()
          if (first === null) first = now
          else events += n
          last = now
        })
        res.on('end', () => {
          const server = Number(/"predicted_per_second":([\d.]+)/.exec(tail)?.[1])
          if (first === null || events === 0 || !Number.isFinite(server)) reject(new Error('no stream or no timings'))
          else resolve({ client: (events / (last - first)) * 1000, server })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** Milliseconds until the first byte of GET /health's answer. */
function firstByteMs(port: number, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const req = request({ host: '127.0.0.1', port, method: 'GET', path: '/health', agent }, (res) => {
      res.once('data', () => resolve(performance.now() - start))
      res.resume()
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number
}

/**
 * Tokens/s a streaming client sees through the endpoint and directly from the
 * same llama-server (alternated rounds, paired ratios; goal ≥ 0.99), and the
 * latency the endpoint adds to the first byte (goal p99 ≤ 2 ms).
 */
export async function benchEndpoint(
  bin: string,
  model: string,
  rounds = Number(process.env.LLAMA_TRAY_BENCH_ROUNDS ?? 7),
  nPredict = 256,
  probes = 400,
): Promise<BenchRow[]> {
  const server = await startBenchServer(bin, model, ['-t', '1'])
  const endpoint = new Endpoint({ host: '127.0.0.1', port: 0, apiKey: null }, staticBackend(server.port))
  const listened = await endpoint.listen()
  if (!listened.ok) throw new Error(listened.error)
  const proxyPort = listened.status.port
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const direct: StreamRate[] = []
  const proxied: StreamRate[] = []
  const ttfbDirect: number[] = []
  const ttfbProxied: number[] = []
  try {
    await streamRate(server.port, 32) // warm-up, both paths
    await streamRate(proxyPort, 32)
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 === 0 ? [server.port, proxyPort] : [proxyPort, server.port]
      for (const port of order) (port === proxyPort ? proxied : direct).push(await streamRate(port, nPredict))
      process.stderr.write(
        `bench: endpoint round ${i + 1}/${rounds}: ${direct.at(-1)?.client.toFixed(0)} tok/s direct, ` +
          `${proxied.at(-1)?.client.toFixed(0)} ` +
          `through\n`,
      )
    }
    for (let i = 0; i < 20; i++) await firstByteMs(proxyPort, agent) // warm the endpoint's own connection
    for (let i = 0; i < probes; i++) {
      const order = i % 2 === 0 ? [server.port, proxyPort] : [proxyPort, server.port]
      for (const port of order) (port === proxyPort ? ttfbProxied : ttfbDirect).push(await firstByteMs(port, agent))
    }
  } finally {
    agent.destroy()
    await endpoint.close()
    await server.stop()
  }
  const ratios = proxied.map((p, i) => p.client / (direct[i] as StreamRate).client)
  // The server's own speed drifts between requests on a busy machine: the client's rate over the server's, per request, isolates delivery.
  const delivery = (runs: readonly StreamRate[]): number => median(runs.map((r) => r.client / r.server))
  return [
    {
      group: 'endpoint',
      name: `streamed generation seen by the client through the endpoint (${nPredict} tokens, median of ${rounds})`,
      value: median(proxied.map((r) => r.client)),
      unit: 'tok/s',
      baseline: median(direct.map((r) => r.client)),
      baselineName: 'direct to llama-server',
    },
    { group: 'endpoint', name: 'through/direct, median of per-round ratios (goal ≥ 0.99)', value: median(ratios), unit: 'ratio' },
    {
      group: 'endpoint',
      name: "client's rate / server's predicted_per_second, same request, through the endpoint",
      value: delivery(proxied),
      unit: 'ratio',
      baseline: delivery(direct),
      baselineName: 'direct',
    },
    {
      group: 'endpoint',
      name: `first byte of GET /health through the endpoint, p50 (${probes} probes, keep-alive)`,
      value: percentile(ttfbProxied, 0.5),
      unit: 'ms',
      baseline: percentile(ttfbDirect, 0.5),
      baselineName: 'direct p50',
    },
    {
      group: 'endpoint',
      name: 'first byte through the endpoint, p99',
      value: percentile(ttfbProxied, 0.99),
      unit: 'ms',
      baseline: percentile(ttfbDirect, 0.99),
      baselineName: 'direct p99',
    },
    {
      group: 'endpoint',
      name: 'added latency to first byte, p50 (through p50 − direct p50)',
      value: percentile(ttfbProxied, 0.5) - percentile(ttfbDirect, 0.5),
      unit: 'ms',
    },
    {
      group: 'endpoint',
      name: 'added latency to first byte, p99 (through p99 − direct p99; goal ≤ 2 ms)',
      value: percentile(ttfbProxied, 0.99) - percentile(ttfbDirect, 0.99),
      unit: 'ms',
    },
  ]
}
