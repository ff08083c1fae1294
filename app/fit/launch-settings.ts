import type { CacheType } from './ggml-types'

/** The draft model of a speculative launch (-md) and its own options. */
export interface DraftSettings {
  readonly path: string
  /** -ngld; 'all' when unset (mainline offloads every layer it can). */
  readonly nGpuLayers: number
  /** -cd; null means the target's context. */
  readonly ctx: number | null
  readonly cacheTypeK: CacheType
  readonly cacheTypeV: CacheType
}

/** The llama-server options that decide memory (what `fit` estimates). */
export interface LaunchSettings {
  /** -c; null when unset (llama-server then uses the training context per sequence). */
  readonly ctx: number | null
  /** -np; null when unset ("auto": 4 slots with a unified KV cache on mainline v0.5.0). */
  readonly parallel: number | null
  /** -kvu / --kv-unified; null when unset. */
  readonly kvUnified: boolean | null
  readonly cacheTypeK: CacheType
  readonly cacheTypeV: CacheType
  /** -ngl; large numbers (999) mean every layer and the output. */
  readonly nGpuLayers: number
  readonly nCpuMoe: number
  readonly cpuMoe: boolean
  /** -ot entries, "regex=BUFFER", in command-line order. */
  readonly overrideTensors: readonly string[]
  readonly batch: number
  readonly ubatch: number
  /** -fa on|off|auto; auto counts as on (mainline enables it wherever the backend supports it). */
  readonly flashAttn: 'on' | 'off' | 'auto'
  /** -nkvo: KV cache stays in host memory. */
  readonly kvOffload: boolean
  /** --no-op-offload turns off copying CPU weights to the GPU for large batches. */
  readonly opOffload: boolean
  readonly draft: DraftSettings | null
}

export const ALL_LAYERS = 999

export const DEFAULT_SETTINGS: LaunchSettings = {
  ctx: null,
  parallel: null,
  kvUnified: null,
  cacheTypeK: 'f16',
  cacheTypeV: 'f16',
  nGpuLayers: ALL_LAYERS,
  nCpuMoe: 0,
  cpuMoe: false,
  overrideTensors: [],
  batch: 2048,
  ubatch: 512,
  flashAttn: 'auto',
  kvOffload: true,
  opOffload: true,
  draft: null,
}
