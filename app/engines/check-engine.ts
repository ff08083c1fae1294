import { backendLabel, type EngineBackend } from './backends'
import { cachedVerdict, checkKey, storeVerdict } from './check-cache'
import { shippedCheckModel } from './check-model'
import { EngineError } from './engine-error'
import { runGpuCheck, type GpuCheck } from './gpu-check'
import { problem, type Problem } from '../contract/problem'

/** A build that did not run on this GPU: which one, why (completes "did not run on this GPU (…)"), and its log. */
export interface FailedBuild {
  readonly tag: string
  readonly backend: EngineBackend
  readonly reason: string
  readonly log: readonly string[]
}

/** The GPU check failed; install.ts turns it into a fallback or an EngineError. */
export class GpuCheckFailedError extends Error {
  constructor(readonly failed: FailedBuild) {
    super(`${backendLabel(failed.backend)} build of ${failed.tag}: ${failed.reason}`)
    this.name = 'GpuCheckFailedError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('engine', this.message, { details: this.failed.reason })
  }
}

export interface CheckEngineOptions {
  readonly home: string
  readonly tag: string
  readonly backend: EngineBackend
  readonly binary: string
  readonly binarySha256: string
  readonly driverVersion: string | null
  readonly check?: GpuCheck
  /** Reruns the check although a verdict is cached (engines verify). */
  readonly ignoreCache?: boolean
  readonly signal?: AbortSignal
}

/** Log lines shown behind a sentence: the end of the run, where the error is. */
export const DETAIL_LINES = 40

/**
 * Runs the GPU check on an engine's binary, or takes the verdict cached for
 * this binary's SHA-256 on this driver; stores a fresh verdict. Throws
 * GpuCheckFailedError when the build does not run on this GPU.
 */
export async function checkEngine(opts: CheckEngineOptions): Promise<{ readonly cached: boolean }> {
  const key = checkKey(opts.binarySha256, opts.driverVersion, opts.backend)
  const cached = opts.ignoreCache ? null : await cachedVerdict(opts.home, key)
  if (cached) {
    if (cached.ok) return { cached: true }
    throw new GpuCheckFailedError({ tag: opts.tag, backend: opts.backend, reason: cached.reason ?? 'it failed the check before', log: [] })
  }
  const model = shippedCheckModel()
  if (model === null) {
    const missing = "The GPU check's model (resources/engine-check/tiny-check.gguf) is missing from this Llama Tray"
    throw new EngineError(`${missing}: reinstall Llama Tray.`, 'does-not-run')
  }
  const request = { binary: opts.binary, backend: opts.backend, model, ...(opts.signal ? { signal: opts.signal } : {}) }
  const result = await (opts.check ?? runGpuCheck)(request)
  // A check that ran out of time may have met a busy machine: it is tried again next time.
  const verdict = { ok: result.ok, reason: result.ok ? null : result.reason, at: new Date().toISOString() }
  if (result.ok || !result.transient) await storeVerdict(opts.home, key, verdict)
  if (!result.ok) {
    throw new GpuCheckFailedError({ tag: opts.tag, backend: opts.backend, reason: result.reason, log: result.log })
  }
  return { cached: false }
}

const listed = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`

function whyEach(failed: readonly FailedBuild[]): string {
  if (failed.length === 1) return failed[0]?.reason ?? ''
  return failed.map((f) => `${backendLabel(f.backend)}: ${f.reason}`).join('; ')
}

/** "The CUDA 12 build of b7000 did not run on this GPU (…); installed the CPU build instead." */
export function fallbackSentence(failed: readonly FailedBuild[], installed: EngineBackend): string {
  const builds = `${listed(failed.map((f) => backendLabel(f.backend)))} build${failed.length > 1 ? 's' : ''}`
  const didNotRun = `The ${builds} of ${failed[0]?.tag ?? ''} did not run on this GPU (${whyEach(failed)})`
  return `${didNotRun}; installed the ${backendLabel(installed)} build instead.`
}

/** For an explicit --backend: the build failed the check, nothing was installed. */
export function checkFailedError(failed: FailedBuild): EngineError {
  const build = `The ${backendLabel(failed.backend)} build of ${failed.tag}`
  const cause = `${build} did not run on this GPU (${failed.reason}), so nothing was installed`
  const fix = 'update the GPU driver, or choose another --backend (auto falls back to the next build by itself).'
  return new EngineError(`${cause}: ${fix}`, 'gpu-check-failed', null, failed.log.slice(-DETAIL_LINES).join('\n') || null)
}

/** For auto: no build of the release ran. */
export function noneRanError(failed: readonly FailedBuild[]): EngineError {
  const cause = `No build of llama.cpp ${failed[0]?.tag ?? ''} ran on this GPU (${whyEach(failed)}), so nothing was installed`
  const fix = 'update the GPU driver, then run llama-tray engines install again.'
  return new EngineError(`${cause}: ${fix}`, 'gpu-check-failed', null, failureDetails(failed))
}

/** The log lines behind a fallback sentence. */
export function failureDetails(failed: readonly FailedBuild[]): string | null {
  if (failed.length === 0) return null
  return failed.map((f) => [`${backendLabel(f.backend)} build of ${f.tag}:`, ...f.log.slice(-DETAIL_LINES)].join('\n')).join('\n\n')
}
