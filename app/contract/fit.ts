/**
 * What `llama-tray fit --json` prints: the estimated memory of one launch
 * placement per device, and the --n-cpu-moe chosen for a VRAM budget.
 * Sizes are MiB (1 MiB = 1,048,576 bytes), rounded to 0.01.
 */

/** One device's share: weights, KV cache (attention layers only), recurrent state, compute buffers. */
export interface FitDeviceMemory {
  readonly weightsMiB: number
  readonly kvMiB: number
  readonly recurrentMiB: number
  readonly computeMiB: number
  readonly totalMiB: number
}

/** The GPU and the host (CPU RAM) side of one model. */
export interface FitModelMemory {
  readonly gpu: FitDeviceMemory
  readonly host: FitDeviceMemory
}

/** The placement and context the estimate is for (what llama-server would get). */
export interface FitPlacement {
  readonly nGpuLayers: number
  readonly nCpuMoe: number
  readonly cpuMoe: boolean
  readonly overrideTensors: readonly string[]
  /** Context after llama-server's rounding (a multiple of 256). */
  readonly ctx: number
  readonly parallel: number
  readonly kvUnified: boolean
  readonly cacheTypeK: string
  readonly cacheTypeV: string
  readonly ubatch: number
  readonly flashAttn: boolean
  readonly draftGpuLayers: number | null
}

/** What the GGUF says, in short (for the report). */
export interface FitModelSummary {
  readonly path: string
  readonly architecture: string
  readonly layers: number
  readonly attentionLayers: number
  readonly recurrentLayers: number
  readonly expertLayers: number
  readonly trainingContext: number
  readonly fileMiB: number
}

/** One step of the --n-cpu-moe search: its GPU total (with the runtime) and whether it fits the budget. */
export interface FitCandidate {
  readonly nCpuMoe: number
  /** Model plus draft plus gpuRuntimeMiB. */
  readonly gpuTotalMiB: number
  readonly fits: boolean
}

export interface FitReport {
  /** The --n-cpu-moe of the reported placement (the chosen one when a budget was given). */
  readonly nCpuMoe: number
  /** Whether the GPU total (model plus draft) fits budgetMiB; null when no budget was given. */
  readonly fits: boolean | null
  /** Free VRAM minus headroom, or null without a budget (estimate only). */
  readonly budgetMiB: number | null
  readonly freeVramMiB: number | null
  readonly headroomMiB: number
  /** Where the free VRAM figure came from: the flag, the GPU telemetry, or nowhere. */
  readonly vramSource: 'flag' | 'telemetry' | 'none'
  readonly gpu: FitDeviceMemory
  readonly host: FitDeviceMemory
  readonly draft: FitModelMemory | null
  /** Model plus draft per device (llama.cpp's own buffers). */
  readonly total: FitModelMemory
  /** GPU memory the process holds beyond its buffers (CUDA context, cuBLAS, pools); 0 with nothing on the GPU. */
  readonly gpuRuntimeMiB: number
  /** Where gpuRuntimeMiB comes from: learned from launches on this GPU model, the H200-measured default, a flag, or nothing on the GPU. */
  readonly gpuRuntimeSource: 'measured' | 'default' | 'flag' | 'none'
  /** What the GPU will show the server holding: total.gpu.totalMiB + gpuRuntimeMiB. This is what must fit the budget. */
  readonly gpuProcessMiB: number
  readonly placement: FitPlacement
  readonly model: FitModelSummary
  readonly draftModel: FitModelSummary | null
  /** Every --n-cpu-moe tried, in order (empty without a budget). */
  readonly candidates: readonly FitCandidate[]
  /** Plain-language notes: assumptions, why nothing fits, what was clamped. */
  readonly notes: readonly string[]
}

/** The dashboard's fit panel: the estimate for a profile, against the GPU's free memory not counting our own server. */
export interface FitEstimate {
  readonly report: FitReport
  /** Free VRAM used as the budget: free now plus what our own running server holds; null without GPU data. */
  readonly freeVramMiB: number | null
  /** What our running server of this profile holds on the GPU now (used now − used just before it started); null when not measurable. */
  readonly measuredServerGpuMiB: number | null
}

/** One device in llama.cpp's own fit plan (its last "- CUDA0 (…): N layers (M overflowing), X MiB used" line). */
export interface LlamaFitDevice {
  readonly id: string
  readonly name: string
  readonly layers: number
  /** Layers whose experts go to host memory. */
  readonly overflowing: number
  /** llama.cpp's buffers on this device (model, context, compute); its own CUDA context is not in it. */
  readonly usedMiB: number
  readonly freeMiB: number
}

/** llama.cpp's own plan for a profile beside ours, with the sentences `llama-tray fit --llama-fit` prints. */
export interface LlamaFitComparison {
  readonly plan: LlamaFitPlan
  readonly lines: readonly string[]
}

/**
 * What llama.cpp's own fit (`--fit`, on by default in mainline) did or would do,
 * read from its -lv 4 log or from `llama-fit-params`: placement and memory.
 */
export interface LlamaFitPlan {
  /** fitted: it changed the placement; unchanged: what was given already fits; failed: it gave up (reason). */
  readonly outcome: 'fitted' | 'unchanged' | 'failed'
  readonly reason: string | null
  /** Its first projection of device memory with the given flags, and the free memory it measured. */
  readonly projectedMiB: number | null
  readonly freeMiB: number | null
  readonly devices: readonly LlamaFitDevice[]
  /** Layers whose experts it puts on the CPU (comparable to --n-cpu-moe), null when not known. */
  readonly cpuExpertLayers: number | null
  /** Whether one more layer is split (part of its experts kept on the GPU). */
  readonly partialLayer: boolean
  /** The flags it printed (llama-fit-params), e.g. ["-c", "65536", "-ngl", "41", "-ot", "…"]; empty from a server log. */
  readonly args: readonly string[]
  /** Whether it measured a draft ("extra model") too. */
  readonly includesDraft: boolean
  /** Seconds the fit took (spent at every start of a server that fits). */
  readonly tookS: number | null
}
