import { contextShape } from '../fit/estimate'
import { cacheRowBytes, CACHE_TYPES, type CacheType } from '../fit/ggml-types'
import type { GgufModel } from '../fit/gguf-model'
import { DEFAULT_SETTINGS } from '../fit/launch-settings'

const MIB = 1024 * 1024

export function isStandardCacheType(t: string): t is CacheType {
  return (CACHE_TYPES as readonly string[]).includes(t)
}

/** The context llama-server builds for -c/-np as given (null = unset), and its KV cells. */
export function kvCells(model: GgufModel, ctx: number | null, parallel: number | null): number {
  return contextShape(model, { ...DEFAULT_SETTINGS, ctx, parallel }).ctx
}

/**
 * KV cache MiB of the attention layers only (recurrent layers have none), for
 * the given K/V types; null when a type is not one we know the size of (fork types).
 */
export function kvCacheMiB(model: GgufModel, cells: number, typeK: string, typeV: string): number | null {
  if (!isStandardCacheType(typeK) || !isStandardCacheType(typeV)) return null
  let bytes = 0
  for (const l of model.layers)
    if (l.kind === 'attention') bytes += cells * (cacheRowBytes(typeK, l.kvEmbdK) + cacheRowBytes(typeV, l.kvEmbdV))
  return bytes / MIB
}

/** Recurrent state MiB per sequence (Gated DeltaNet layers). */
export function recurrentMiBPerSequence(model: GgufModel): number {
  const n = model.layers.filter((l) => l.kind === 'recurrent').length
  return (n * (model.recurrentRBytes + model.recurrentSBytes)) / MIB
}

export function isHybrid(model: GgufModel): boolean {
  return model.layers.some((l) => l.kind === 'recurrent')
}

export const fmtMiB = (mib: number): string => (mib >= 10240 ? `${(mib / 1024).toFixed(1)} GiB` : `${Math.round(mib)} MiB`)
