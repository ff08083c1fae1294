/**
 * Benchmarks of profiles (`llama-tray bench | compare | tune`, the Bench view).
 * Rates are tokens per second, exactly as llama-server reported them in the
 * response's `timings`; memory is MiB; CPU shares are of the whole machine (0–100).
 */

/** One request of the fixed prompt set, as measured. */
export interface BenchRun {
  /** The prompt's name in the fixed set ('narrative', 'code'). */
  readonly prompt: string
  /** Round of a compare (0-based; always 0 for a single bench) and the run within it. */
  readonly round: number
  readonly index: number
  /** Epoch ms when the request was sent. */
  readonly startedAt: number
  /** Wall time of the request, ms. */
  readonly wallMs: number
  readonly promptTokens: number
  readonly promptMs: number
  readonly promptTokensPerSecond: number
  readonly generatedTokens: number
  readonly generationMs: number
  /** Generation (decode) rate: the server's `timings.predicted_per_second`. */
  readonly tokensPerSecond: number
  /** Drafted and accepted tokens (speculative decoding); null without a draft. */
  readonly draftTokens: number | null
  readonly draftAccepted: number | null
  /** draftAccepted / draftTokens; null without drafting. */
  readonly draftAcceptance: number | null
  /** From GPU telemetry during the run; null without GPU data. */
  readonly peakVramUsedMiB: number | null
  readonly minFreeVramMiB: number | null
  readonly maxGpuTemperatureC: number | null
  /** The GPU's energy in J over the request (prompt and generation), where a GPU energy source exists; absent in older reports. */
  readonly energyJ?: number | null
  /** GPU clock-event reasons seen during the run (thermal/power slowdowns). */
  readonly throttleReasons: readonly string[]
  /** Mean whole-machine CPU load and llama-server's own share during the run; null when unknown. */
  readonly cpuSystemPct: number | null
  readonly cpuServerPct: number | null
  /** Heavy apps (browsers, chat, games…) running during the run. */
  readonly heavyApps: readonly string[]
  /** A heavy app was busy, or the GPU throttled or ran hot: the figures may be low. */
  readonly disturbed: boolean
  readonly disturbedReasons: readonly string[]
}

/** Medians of a set of runs. */
export interface BenchFigures {
  readonly promptTokensPerSecond: number | null
  readonly tokensPerSecond: number | null
  readonly draftAcceptance: number | null
  /** The GPU's energy per 1,000 generated tokens over these runs; null where none was measured (absent in older reports). */
  readonly joulesPer1000Tokens?: number | null
}

/** Spread of one figure over runs: the noise to read differences against. */
export interface BenchSpread {
  readonly min: number
  readonly max: number
  /** Median absolute deviation. */
  readonly mad: number
  /** (max − min) / median, percent. */
  readonly rangePct: number
  /** 1.4826 × MAD / median, percent (a robust coefficient of variation). */
  readonly robustCvPct: number
}

export interface BenchPromptSummary {
  readonly prompt: string
  readonly runs: number
  readonly median: BenchFigures
  readonly tokensPerSecondSpread: BenchSpread | null
  readonly promptTokensPerSecondSpread: BenchSpread | null
  /** The median generation rate of each round (compare): how well repeated rounds agree. */
  readonly roundMedians: readonly number[]
}

/** What was benched, exactly: enough to repeat it and to compare it with a later run. */
export interface BenchTarget {
  readonly profileId: string
  readonly profileName: string
  /** Short label for tables (the profile name, or the tune setting). */
  readonly label: string
  readonly exe: string
  readonly args: readonly string[]
  /** The llama.cpp fork of the binary (ServerFork), null when it was not detected. */
  readonly fork: string | null
  readonly model: string | null
  readonly draftModel: string | null
  /** "K/V" cache types, e.g. "q8_0/q5_0" ("f16/f16" when unset). */
  readonly kvCache: string
  readonly nCpuMoe: number | null
}

export interface BenchResult extends BenchTarget {
  readonly runs: readonly BenchRun[]
  /** Medians over the undisturbed runs when there are any, else over all (see medianOver). */
  readonly median: BenchFigures
  readonly medianOver: 'clean' | 'all'
  readonly tokensPerSecondSpread: BenchSpread | null
  readonly promptTokensPerSecondSpread: BenchSpread | null
  readonly prompts: readonly BenchPromptSummary[]
  readonly disturbedRuns: number
  /** Lowest free VRAM seen while the server was loaded and benched; null without GPU data. */
  readonly minFreeVramMiB: number | null
  readonly peakVramUsedMiB: number | null
  /** The server's start time until ready, ms (null when an already running server was reused). */
  readonly loadMs: number | null
  /** The same exe and arguments benched earlier on this machine, when a stored result exists. */
  readonly previous: { readonly file: string; readonly createdAt: string; readonly median: BenchFigures } | null
}

/** The machine the figures were measured on. */
export interface BenchHardware {
  readonly platform: string
  readonly release: string
  readonly cpuModel: string
  readonly cpuCores: number
  readonly ramTotalMiB: number
  readonly gpus: readonly { readonly name: string | null; readonly memoryTotalMiB: number | null }[]
  readonly gpuSource: string | null
}

export interface BenchConfig {
  /** Runs per prompt per profile per round. */
  readonly runs: number
  readonly rounds: number
  /** Generated tokens per run (n_predict, with ignore_eos). */
  readonly tokens: number
  readonly seed: number
  readonly prompts: readonly string[]
  readonly warmupTokens: number
}

/** Ratio of a profile's median to the first profile's (1 = same speed). */
export interface BenchRatio {
  readonly profileId: string
  readonly label: string
  readonly tokensPerSecond: number | null
  readonly promptTokensPerSecond: number | null
  /** Per prompt: generation-rate ratio. */
  readonly byPrompt: Readonly<Record<string, number | null>>
}

export type BenchKind = 'bench' | 'compare' | 'tune'

/** What `--json` prints and what is stored in <home>/bench/. */
export interface BenchReport {
  readonly kind: BenchKind
  readonly createdAt: string
  readonly hardware: BenchHardware
  readonly config: BenchConfig
  readonly results: readonly BenchResult[]
  /** Against results[0]. */
  readonly ratios: readonly BenchRatio[]
  /** Where it was stored; null when storing failed (the reason is in notes). */
  readonly file: string | null
  readonly notes: readonly string[]
  readonly tune: TuneSummary | null
}

export type TuneCandidateStatus = 'benched' | 'skipped-vram' | 'failed'

export interface TuneCandidate {
  readonly nCpuMoe: number
  readonly draft: boolean
  readonly status: TuneCandidateStatus
  /** Lowest free VRAM measured after load and warm-up; null without GPU data. */
  readonly minFreeVramMiB: number | null
  readonly reason: string | null
  /** Median generation rate when benched. */
  readonly tokensPerSecond: number | null
}

export interface TuneSummary {
  readonly profileId: string
  /** The fit's --n-cpu-moe for the free VRAM measured with the server stopped (null: no GPU data). */
  readonly fitSuggestion: number | null
  /** The CUDA runtime the fit counted (learned on this GPU model, else the default); null without GPU data. */
  readonly fitRuntimeMiB: number | null
  readonly idleFreeVramMiB: number | null
  readonly headroomMiB: number
  readonly candidates: readonly TuneCandidate[]
  readonly recommended: {
    readonly nCpuMoe: number
    readonly draft: boolean
    readonly tokensPerSecond: number
    readonly args: readonly string[]
  } | null
  /** The profile saved with --save; null when not saved. */
  readonly savedProfileId: string | null
}

export type BenchPhase = 'preparing' | 'starting' | 'warmup' | 'measuring-vram' | 'run' | 'stopping' | 'restoring' | 'done'

/** Progress of a bench, compare or tune. */
export interface BenchProgress {
  readonly phase: BenchPhase
  /** What is happening, in words ("kv-q8 · round 2/2 · code run 3/3"). */
  readonly message: string
  readonly profileId: string | null
  readonly step: number
  readonly totalSteps: number
  readonly elapsedMs: number
  /** Estimated time left; null until something was measured. */
  readonly remainingMs: number | null
}
