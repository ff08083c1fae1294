import type { BenchConfig, BenchProgress, BenchRun } from '../contract/bench'
import type { Snapshot } from '../contract/snapshot'
import { isServing } from '../contract/server-state'
import { resolveApiKey } from '../metrics/api-key'
import type { BenchHost } from './bench-host'
import { complete, type ServerTimings } from './completion'
import { ProgressTracker, type StepKind } from './progress'
import { BENCH_PROMPTS, BENCH_SEED, type BenchPrompt } from './prompts'
import { RunSampler, summariseConditions } from './run-sampler'
import { BenchCancelledError, startForBench, throwIfCancelled } from './bench-launch'
import { minOrNull, maxOrNull } from './stats'
import type { PreparedTarget } from './target'

export interface BenchOptions {
  /** Runs per prompt (per round). */
  readonly runs: number
  /** Generated tokens per run. */
  readonly tokens: number
  /** Rounds (compare alternates the profile order each round). */
  readonly rounds?: number
  readonly warmupTokens?: number
  readonly seed?: number
  readonly prompts?: readonly BenchPrompt[]
  /** How often telemetry is read during a run. */
  readonly sampleIntervalMs?: number
}

export interface BenchDeps {
  readonly core: BenchHost
  readonly home: string
  readonly signal?: AbortSignal
  readonly onProgress?: (progress: BenchProgress) => void
}

/** One server session of a target: its runs and what the telemetry saw while it was loaded. */
export interface TargetSession {
  readonly runs: BenchRun[]
  readonly loadMs: number | null
  readonly minFreeVramMiB: number | null
  readonly peakVramUsedMiB: number | null
}

/** Drops GPU readings taken before this server was ready (they describe the previous one). */
function sinceReady(samples: readonly Snapshot[], readyAt: number): Snapshot[] {
  return samples.map((s) => (s.gpu && (s.gpu.sampledAt ?? 0) < readyAt ? { ...s, gpu: null } : s))
}

function isAbort(err: unknown): boolean {
  return err instanceof Error && (err.name === 'AbortError' || (err as NodeJS.ErrnoException).code === 'ABORT_ERR')
}

/**
 * The machinery shared by bench, compare and tune: config, cancellation,
 * progress, and benching one prepared target on the core's server.
 */
export class BenchSession {
  readonly config: BenchConfig
  readonly signal: AbortSignal
  readonly progress: ProgressTracker
  readonly prompts: readonly BenchPrompt[]
  private readonly sampleIntervalMs: number

  constructor(
    readonly deps: BenchDeps,
    options: BenchOptions,
  ) {
    if (!Number.isInteger(options.runs) || options.runs < 1) throw new RangeError('runs must be a whole number ≥ 1')
    if (!Number.isInteger(options.tokens) || options.tokens < 1) throw new RangeError('tokens must be a whole number ≥ 1')
    this.prompts = options.prompts ?? BENCH_PROMPTS
    this.config = {
      runs: options.runs,
      rounds: options.rounds ?? 1,
      tokens: options.tokens,
      seed: options.seed ?? BENCH_SEED,
      prompts: this.prompts.map((p) => p.name),
      warmupTokens: options.warmupTokens ?? 8,
    }
    this.signal = deps.signal ?? new AbortController().signal
    this.sampleIntervalMs = options.sampleIntervalMs ?? 200
    // First guesses until measured: a load, a warm-up, a run at ~50 tok/s.
    this.progress = new ProgressTracker(deps.onProgress, {
      start: 5000,
      warmup: 2000,
      run: 1000 + (options.tokens / 50) * 1000,
    } satisfies Record<StepKind, number>)
  }

  get core(): BenchHost {
    return this.deps.core
  }

  /** Steps one target session takes: a start, a warm-up and the runs. */
  planTarget(): void {
    this.progress.plan('start', 1)
    this.progress.plan('warmup', 1)
    this.progress.plan('run', this.config.runs * this.prompts.length)
  }

  /** Starts the target's server (or keeps it when it already runs), warms it up and runs the prompt set. */
  async benchTarget(
    prepared: PreparedTarget,
    round: number,
    what: string,
    onReady?: (loaded: { minFreeVramMiB: number | null }) => Promise<boolean>,
  ): Promise<TargetSession> {
    const id = prepared.target.profileId
    const started = await this.progress.step('start', 'starting', `${what}: starting llama-server`, id, () =>
      startForBench(this.core, prepared.spec, this.signal),
    )
    const readyAt = isServing(started.status) ? started.status.readySince : Date.now()
    const loadMs = started.reused ? null : started.loadMs
    const whole = new RunSampler(() => this.core.snapshot(), 250)
    let wholeSamples: Snapshot[] | null = null
    const unwatch = this.core.watch?.() ?? (() => undefined)
    try {
      await this.progress.step('warmup', 'warmup', `${what}: warm-up`, id, () => this.warmUp(prepared))
      if (onReady) {
        this.progress.report('measuring-vram', `${what}: measuring free VRAM`, id)
        await this.waitForGpuSample(Date.now())
        const loaded = summariseConditions(sinceReady(whole.stop(), readyAt), Infinity)
        wholeSamples = []
        if (!(await onReady({ minFreeVramMiB: loaded.minFreeVramMiB }))) {
          this.progress.unplan('run', this.config.runs * this.prompts.length)
          return { runs: [], loadMs, minFreeVramMiB: loaded.minFreeVramMiB, peakVramUsedMiB: loaded.peakVramUsedMiB }
        }
      }
      const runs: BenchRun[] = []
      for (let i = 0; i < this.config.runs; i++) {
        for (const prompt of this.prompts) {
          runs.push(
            await this.progress.step('run', 'run', `${what}: ${prompt.name} run ${i + 1}/${this.config.runs}`, id, () =>
              this.runOnce(prepared, prompt, round, i, readyAt),
            ),
          )
        }
      }
      const conditions = summariseConditions(sinceReady((wholeSamples ??= whole.stop()), readyAt), Infinity)
      return {
        runs,
        loadMs,
        minFreeVramMiB: minOrNull([conditions.minFreeVramMiB, ...runs.map((r) => r.minFreeVramMiB)]),
        peakVramUsedMiB: maxOrNull([conditions.peakVramUsedMiB, ...runs.map((r) => r.peakVramUsedMiB)]),
      }
    } finally {
      if (wholeSamples === null) whole.stop()
      unwatch()
    }
  }

  /** Waits (bounded) for a GPU reading taken after `after`, so a decision is not made on a stale one. */
  async waitForGpuSample(after: number, timeoutMs = 4000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      throwIfCancelled(this.signal)
      const gpu = this.core.snapshot().gpu
      if (gpu && !gpu.available && gpu.backend === null) return // no GPU reader: nothing to wait for
      if (gpu?.sampledAt != null && gpu.sampledAt >= after) return
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  private async request(prepared: PreparedTarget, prompt: string, nPredict: number): Promise<ServerTimings> {
    throwIfCancelled(this.signal)
    const status = this.core.server.getStatus()
    if (status.state !== 'ready')
      throw new Error(`llama-server is ${status.state}${status.lastExit?.reason ? `: ${status.lastExit.reason}` : ''}`)
    const serverSignal = this.core.server.getRequestSignal()
    const signal = serverSignal ? AbortSignal.any([this.signal, serverSignal]) : this.signal
    const apiKey = await resolveApiKey(prepared.spec.args, prepared.spec.env ?? {})
    try {
      return await complete({ host: status.host, port: status.port, apiKey, prompt, nPredict, seed: this.config.seed, signal })
    } catch (err) {
      if (this.signal.aborted) throw new BenchCancelledError()
      if (isAbort(err)) {
        const now = this.core.server.getStatus()
        throw new Error(`llama-server went away during the run (${now.lastExit?.reason ?? now.state})`)
      }
      throw err
    }
  }

  private async warmUp(prepared: PreparedTarget): Promise<void> {
    for (const p of this.prompts) await this.request(prepared, p.text, this.config.warmupTokens)
  }

  private async runOnce(prepared: PreparedTarget, prompt: BenchPrompt, round: number, index: number, readyAt: number): Promise<BenchRun> {
    const sampler = new RunSampler(() => this.core.snapshot(), this.sampleIntervalMs)
    const startedAt = Date.now()
    const t0 = performance.now()
    let t: ServerTimings
    let samples: Snapshot[]
    try {
      t = await this.request(prepared, prompt.text, this.config.tokens)
    } finally {
      samples = sampler.stop()
    }
    const wallMs = performance.now() - t0
    const energyJ = this.core.energyJ?.(startedAt, startedAt + wallMs) ?? null
    const c = summariseConditions(sinceReady(samples, readyAt), this.core.settings.gpuTemperatureWarnC)
    const drafted = t.draft_n !== undefined && t.draft_n > 0
    return {
      prompt: prompt.name,
      round,
      index,
      startedAt,
      wallMs,
      promptTokens: t.prompt_n,
      promptMs: t.prompt_ms,
      promptTokensPerSecond: t.prompt_per_second,
      generatedTokens: t.predicted_n,
      generationMs: t.predicted_ms,
      tokensPerSecond: t.predicted_per_second,
      draftTokens: drafted ? (t.draft_n as number) : null,
      draftAccepted: drafted ? (t.draft_n_accepted ?? 0) : null,
      draftAcceptance: drafted ? (t.draft_n_accepted ?? 0) / (t.draft_n as number) : null,
      peakVramUsedMiB: c.peakVramUsedMiB,
      minFreeVramMiB: c.minFreeVramMiB,
      maxGpuTemperatureC: c.maxGpuTemperatureC,
      energyJ,
      throttleReasons: c.throttleReasons,
      cpuSystemPct: c.cpuSystemPct,
      cpuServerPct: c.cpuServerPct,
      heavyApps: c.heavyApps,
      disturbed: c.disturbedReasons.length > 0,
      disturbedReasons: c.disturbedReasons,
    }
  }
}
