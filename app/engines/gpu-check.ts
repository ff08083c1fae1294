import { serverSubcommand } from '../contract/server-binary'
import { spawn } from 'node:child_process'
import { serverOrigin } from '../contract/client-url'
import { httpRequest } from '../lib/http-request'
import { LineSplitter } from '../lib/line-splitter'
import { abandonChild, formatSeconds, LEADS_ITS_GROUP, signalProcessGroup } from '../lib/process/process-group'
import { findFreePort } from '../supervisor/free-port'
import { findGpuError, placedALayerOnGpu, type GpuLogError } from '../supervisor/gpu-errors'
import { probeHealth } from '../supervisor/health'
import type { EngineBackend } from './backends'

export interface GpuCheckRequest {
  readonly binary: string
  readonly backend: EngineBackend
  /** The tiny model the product ships (shippedCheckModel()). */
  readonly model: string
  /** The whole check: start, load, one completion (default 60 s). */
  readonly timeoutMs?: number
  readonly signal?: AbortSignal
}

export type GpuCheckResult =
  | { readonly ok: true; readonly log: readonly string[] }
  /**
   * `reason` completes "did not run on this GPU (…)"; `log` holds the server's lines for Details.
   * `transient`: it ran out of time, which a busy machine may cause too, or it saw no GPU at all (hidden by
   * CUDA_VISIBLE_DEVICES, a driver not up yet): the verdict says nothing about the build, so it is not cached.
   */
  | { readonly ok: false; readonly reason: string; readonly log: readonly string[]; readonly transient?: boolean }

/** Runs the check on one binary; the real one is runGpuCheck, tests may wrap it. */
export type GpuCheck = (request: GpuCheckRequest) => Promise<GpuCheckResult>

const DEFAULT_TIMEOUT_MS = 60_000
const POLL_MS = 100
/** Lines kept of the server's log (the start of a load is where a GPU backend reports). */
const MAX_LINES = 2000
const COMPLETION = JSON.stringify({ prompt: 'Hello', n_predict: 4, temperature: 0 })

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
/** A bound on a wait that must not keep the process alive by itself (the CLI exits when its work is done). */
const atMost = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref())
const isGpu = (backend: EngineBackend): boolean => backend !== 'cpu'

/** The check server's arguments: the tiny model on loopback, and for a GPU build one layer on the GPU. */
export function gpuCheckArgs(model: string, port: number, backend: EngineBackend): string[] {
  // -lv 4: at its default verbosity (3) llama-server logs nothing of the load, neither the layer it put on the
  // GPU nor the CUDA device it found (a CUDA build on an H200 then failed the check although it ran there).
  const onGpu = isGpu(backend) ? ['-ngl', '1', '-lv', '4'] : []
  return ['-m', model, '--host', '127.0.0.1', '--port', String(port), '-c', '512', '-np', '1', ...onGpu]
}

/**
 * Starts the freshly extracted llama-server on the shipped tiny model (one layer
 * on the GPU for a GPU build), waits for /health, asks for a 4-token completion,
 * and reads the log for GPU errors. The server's process group is killed
 * whatever happens, and the whole check ends by its timeout.
 */
export const runGpuCheck: GpuCheck = async (request) => {
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const deadline = Date.now() + timeoutMs
  const port = await findFreePort('127.0.0.1')
  const args = gpuCheckArgs(request.model, port, request.backend)
  const lines: string[] = []
  const keep = (line: string): void => void (lines.length < MAX_LINES && lines.push(line))
  // llama.cpp's one program runs its server as `llama serve …` (server-binary.ts).
  const child = spawn(request.binary, [...serverSubcommand(request.binary), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
    ...LEADS_ITS_GROUP,
  })
  let exit: string | null = null
  const exited = new Promise<void>((done) => {
    child.once('error', (err) => {
      exit = `it could not be started (${err.message})`
      done()
    })
    child.once('exit', (code, signal) => {
      exit ??= signal ? `it was killed by ${signal}` : `it exited with code ${code ?? 'unknown'}`
      done()
    })
  })
  const drained = Promise.all(
    [child.stdout, child.stderr].map(
      (stream) =>
        new Promise<void>((done) => {
          const splitter = new LineSplitter(keep)
          stream.on('data', (c: Buffer) => splitter.write(c))
          stream.once('close', () => {
            splitter.end()
            done()
          })
        }),
    ),
  )
  // A server that died on the completion (a CUDA error aborts it) has its last lines still in the pipe.
  const whenGone = (): Promise<unknown> => Promise.race([drained, atMost(5000)])
  // No device seen (hidden, or the driver not up) says nothing about the build: such a verdict is not kept.
  const failure = (reason: string, gpuError: GpuLogError | null): GpuCheckResult => ({
    ok: false,
    reason: gpuError?.reason ?? reason,
    log: lines,
    ...(gpuError?.noDevice ? { transient: true } : {}),
  })
  const fail = (reason: string): GpuCheckResult => failure(reason, findGpuError(lines))
  try {
    const outcome = await checkServer(port, deadline, () => exit, request.signal)
    const cancelled = request.signal?.aborted ? (request.signal.reason as unknown) : null
    if (cancelled !== null) throw cancelled instanceof Error ? cancelled : new Error('The GPU check was cancelled.')
    if (exit !== null || (outcome !== null && outcome !== 'timeout')) await Promise.race([exited.then(whenGone), atMost(2000)])
    if (outcome === 'timeout') {
      const gpuError = findGpuError(lines)
      const reason = gpuError?.reason ?? `it did not answer within ${formatSeconds(timeoutMs)}`
      return { ...failure(reason, gpuError), ...(gpuError ? {} : { transient: true }) }
    }
    if (outcome !== null) return fail(outcome)
    const gpuError = findGpuError(lines)
    if (gpuError) return failure(gpuError.reason, gpuError)
    if (isGpu(request.backend) && !placedALayerOnGpu(lines)) {
      return { ok: false, reason: 'it put no layer on the GPU, so it found no GPU it can use', log: lines }
    }
    return { ok: true, log: lines }
  } finally {
    signalProcessGroup(child, 'SIGKILL')
    // A process stuck in the driver may outlive SIGKILL for a while: stop waiting for it.
    await Promise.race([exited, atMost(5000)])
    abandonChild(child)
  }
}

/** Waits for /health, then runs one completion; null when both went well, else why not (or 'timeout'). */
async function checkServer(port: number, deadline: number, exited: () => string | null, signal?: AbortSignal): Promise<string | null> {
  const origin = serverOrigin('127.0.0.1', port)
  for (;;) {
    if (signal?.aborted) return 'cancelled'
    const gone = exited()
    if (gone !== null) return gone.startsWith('it could not be started') ? gone : `${gone} before it was ready`
    if (Date.now() > deadline) return 'timeout'
    const health = await probeHealth('127.0.0.1', port, Math.max(1, Math.min(2000, deadline - Date.now())), signal)
    if (health.kind === 'ready') break
    await sleep(POLL_MS)
  }
  const left = deadline - Date.now()
  if (left <= 0) return 'timeout'
  const r = await httpRequest({
    url: `${origin}/completion`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: COMPLETION,
    timeoutMs: left,
    maxBytes: 1 << 20,
    ...(signal ? { signal } : {}),
  })
  if (r.kind === 'failed') {
    if (r.reason === 'timeout') return 'timeout'
    return `its completion failed (${exited() ?? r.detail})`
  }
  if (r.status !== 200) return `its completion answered HTTP ${r.status}`
  try {
    const body = JSON.parse(r.body.toString('utf8')) as { content?: unknown }
    return typeof body.content === 'string' ? null : 'its completion answered no text'
  } catch {
    return 'its completion answered something other than JSON'
  }
}
