import { FitError } from './fit-error'

/** Block size (elements) and bytes per block of each ggml tensor type, by the GGUF type id. */
interface TypeSize {
  readonly name: string
  readonly blockSize: number
  readonly typeSize: number
}

const TYPES: Readonly<Record<number, TypeSize>> = {
  0: { name: 'f32', blockSize: 1, typeSize: 4 },
  1: { name: 'f16', blockSize: 1, typeSize: 2 },
  2: { name: 'q4_0', blockSize: 32, typeSize: 18 },
  3: { name: 'q4_1', blockSize: 32, typeSize: 20 },
  6: { name: 'q5_0', blockSize: 32, typeSize: 22 },
  7: { name: 'q5_1', blockSize: 32, typeSize: 24 },
  8: { name: 'q8_0', blockSize: 32, typeSize: 34 },
  9: { name: 'q8_1', blockSize: 32, typeSize: 36 },
  10: { name: 'q2_K', blockSize: 256, typeSize: 84 },
  11: { name: 'q3_K', blockSize: 256, typeSize: 110 },
  12: { name: 'q4_K', blockSize: 256, typeSize: 144 },
  13: { name: 'q5_K', blockSize: 256, typeSize: 176 },
  14: { name: 'q6_K', blockSize: 256, typeSize: 210 },
  15: { name: 'q8_K', blockSize: 256, typeSize: 292 },
  16: { name: 'iq2_xxs', blockSize: 256, typeSize: 66 },
  17: { name: 'iq2_xs', blockSize: 256, typeSize: 74 },
  18: { name: 'iq3_xxs', blockSize: 256, typeSize: 98 },
  19: { name: 'iq1_s', blockSize: 256, typeSize: 50 },
  20: { name: 'iq4_nl', blockSize: 32, typeSize: 18 },
  21: { name: 'iq3_s', blockSize: 256, typeSize: 110 },
  22: { name: 'iq2_s', blockSize: 256, typeSize: 82 },
  23: { name: 'iq4_xs', blockSize: 256, typeSize: 136 },
  24: { name: 'i8', blockSize: 1, typeSize: 1 },
  25: { name: 'i16', blockSize: 1, typeSize: 2 },
  26: { name: 'i32', blockSize: 1, typeSize: 4 },
  27: { name: 'i64', blockSize: 1, typeSize: 8 },
  28: { name: 'f64', blockSize: 1, typeSize: 8 },
  29: { name: 'iq1_m', blockSize: 256, typeSize: 56 },
  30: { name: 'bf16', blockSize: 1, typeSize: 2 },
  34: { name: 'tq1_0', blockSize: 256, typeSize: 54 },
  35: { name: 'tq2_0', blockSize: 256, typeSize: 66 },
  39: { name: 'mxfp4', blockSize: 32, typeSize: 17 },
}

/** GGUF type ids by lowercase name (for writing synthetic files). */
export const GGML_TYPE_ID: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(TYPES).map(([id, t]) => [t.name.toLowerCase(), Number(id)]),
)

export function ggmlTypeName(typeId: number): string {
  return TYPES[typeId]?.name ?? `type${typeId}`
}

export function isKnownGgmlType(typeId: number): boolean {
  return TYPES[typeId] !== undefined
}

/**
 * Bytes of a row of `elements` values of this type (ggml_row_size). Throws FitError for an unknown type or a row that is not whole blocks.
 */
export function rowBytes(typeId: number, elements: number): number {
  const t = TYPES[typeId]
  if (!t) throw new FitError(`unknown ggml tensor type id ${typeId}`)
  if (elements % t.blockSize !== 0)
    throw new FitError(`a row of ${elements} values is not a whole number of ${t.name} blocks (${t.blockSize})`)
  return (elements / t.blockSize) * t.typeSize
}

/** Bytes of a whole tensor: rows of shape[0] values times the other dimensions. */
export function tensorBytes(typeId: number, shape: readonly number[]): number {
  const [first = 1, ...rest] = shape
  return rowBytes(typeId, first) * rest.reduce((a, b) => a * b, 1)
}

/**
 * What the CUDA backend adds to a quantized tensor's allocation: padding to a
 * multiple of 512 values in the first dimension, once per tensor
 * (MATRIX_ROW_PADDING). Nothing for f32/f16 or rows already a multiple of 512.
 */
export function cudaPaddingBytes(typeId: number, shape: readonly number[]): number {
  const t = TYPES[typeId]
  const first = shape[0] ?? 1
  if (!t || t.blockSize === 1 || first % 512 === 0) return 0
  return rowBytes(typeId, 512 - (first % 512))
}

/** KV cache types llama-server accepts for -ctk/-ctv (mainline). */
export const CACHE_TYPES = ['f32', 'f16', 'bf16', 'q8_0', 'q4_0', 'q4_1', 'iq4_nl', 'q5_0', 'q5_1'] as const
export type CacheType = (typeof CACHE_TYPES)[number]

export function parseCacheType(text: string, flag: string): CacheType {
  const t = text.toLowerCase()
  if ((CACHE_TYPES as readonly string[]).includes(t)) return t as CacheType
  throw new FitError(
    `${flag}: unsupported cache type "${text}" (one of ${CACHE_TYPES.join(', ')}; fork-only types such as turbo4 are not estimated)`,
  )
}

/** Bytes of `elements` cache values of a cache type. */
export function cacheRowBytes(type: CacheType, elements: number): number {
  const id = GGML_TYPE_ID[type]
  if (id === undefined) throw new FitError(`unknown cache type ${type}`)
  return rowBytes(id, elements)
}
