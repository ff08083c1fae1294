import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EndpointRequestFigures } from '../app/contract/endpoint'
import { LlamaTrayCore } from '../app/core/llama-tray-core'
import { formatCommandLine } from '../app/lib/command-line'
import type { BenchRow } from './bench-row'
import { onCleanup } from './cleanup'
import { percentile } from './percentile'

const PATTERN = ['alpha', 'beta', 'alpha', 'alpha', 'gamma']

interface TraceRun {
  readonly loads: number
  /** Each request's wait for its turn (held by the scheduler), in seconds. */
  readonly waits: number[]
}

/** Sends the A B A A C trace through the endpoint, one request every `gapMs` without waiting for answers. */
async function runTrace(core: LlamaTrayCore, port: number, requests: number, gapMs: number): Promise<TraceRun> {
  const start = await core.handlers['server:start']('alpha')
  if (!start.ok) throw new Error(`bench: ${start.error.sentence}`)
  let loads = 0
  let previous = core.server.getStatus().state
  // A start may say "starting" more than once (its pid, its port): one load per entry into the state.
  const offState = core.on('server:state-changed', (s) => {
    if (s.state === 'starting' && previous !== 'starting') loads++
    previous = s.state
  })
  const figures: EndpointRequestFigures[] = []
  const offFigures = core.onEndpointRequest((f) => figures.push(f))
  const answers: Promise<number>[] = []
  for (let i = 0; i < requests; i++) {
    const body = { model: PATTERN[i % PATTERN.length], max_tokens: 8, messages: [{ role: 'user', content: 'Say hi' }] }
    const sent = fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    answers.push(sent.then(async (r) => (await r.text(), r.status)))
    await new Promise((r) => setTimeout(r, gapMs))
  }
  const statuses = await Promise.all(answers)
  offState()
  offFigures()
  if (statuses.some((s) => s !== 200)) throw new Error(`bench: answers ${statuses.join(' ')}`)
  return { loads, waits: figures.map((f) => f.heldMs / 1000) }
}

/**
 * The same A B A A C trace sent to the real endpoint (core, scheduler, the real llama-server on three tiny
 * models, one thread each): grouping with a 5 s residency against switching at once (residency 0). Loads are
 * the server starts the trace caused; a wait is a request's time held by the scheduler.
 */
export async function benchSwitchTraceLive(bin: string, modelsDir: string, requests = 20, gapMs = 300): Promise<BenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-bench-trace-'))
  const core = await LlamaTrayCore.create({ home, telemetry: null, supervisor: { readyTimeoutMs: 120_000 } })
  const forget = onCleanup(() => core.dispose())
  try {
    const common = ['-c', '2048', '-np', '4', '-t', '1', '--seed', '1']
    for (const [name, file] of [
      ['alpha', 'tiny-target.gguf'],
      ['beta', 'tiny-draft.gguf'],
      ['gamma', 'tiny-target-iq.gguf'],
    ] as const) {
      const imported = await core.handlers['profiles:import'](formatCommandLine([bin, '-m', join(modelsDir, file), ...common]), name)
      if (!imported.ok) throw new Error(`bench: ${imported.error.sentence}`)
    }
    const listened = await core.startEndpoint({ port: 0 })
    if (!listened.ok) throw new Error(`bench: ${listened.error}`)
    const port = listened.status.port
    const run = async (residencyS: number): Promise<TraceRun> => {
      const set = await core.handlers['settings:set']({ switchMinResidencyS: residencyS, switchDrainS: 60 })
      if (!set.ok) throw new Error(`bench: ${set.error.sentence}`)
      return runTrace(core, port, requests, gapMs)
    }
    const atOnce = await run(0)
    const grouped = await run(5)
    const group = `switch scheduling, real server (A B A A C, ${requests} requests, one every ${gapMs} ms)`
    const row = (name: string, unit: string, g: number, o: number): BenchRow => ({
      group,
      name,
      value: g,
      unit,
      baseline: o,
      baselineName: 'switch at once',
    })
    return [
      row('loads (grouped: 5 s residency)', 'loads', grouped.loads, atOnce.loads),
      row('p50 wait', 's', percentile(grouped.waits, 50), percentile(atOnce.waits, 50)),
      row('p95 wait', 's', percentile(grouped.waits, 95), percentile(atOnce.waits, 95)),
    ]
  } finally {
    forget()
    await core.dispose()
    rmSync(home, { recursive: true, force: true })
  }
}
