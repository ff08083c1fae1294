import { ggmlTypeName } from '../fit/ggml-types'
import type { ModelTensor } from '../fit/gguf-model'

// Quantisation names as people put them in file names (Q4_K_M, IQ4_XS, UD-Q4_K_XL, IQ4_KS_R4, BF16, MXFP4…).
const QUANT_IN_NAME = /(?:^|[-_.])((?:UD-)?(?:I?Q\d_K(?:_(?:XXS|XS|S|M|L|XL))?(?:_R\d)?|IQ\d_(?:XXS|XS|S|M|NL|KS|KSS|KT|KL)(?:_R\d)?|Q\d_[01](?:_R\d)?|TQ\d_0|MXFP4|BF16|F16|F32))(?=[-_.]|$)/i

/** The quantisation written in a file name, upper-cased; null when none is. */
export function quantisationFromName(fileName: string): string | null {
  const m = QUANT_IN_NAME.exec(fileName)
  return m?.[1] ? m[1].toUpperCase() : null
}

/**
 * The quantisation from the tensor table: the type holding the most bytes among
 * the weight matrices (norms and biases are f32 in every quantisation).
 */
export function quantisationFromTensors(tensors: readonly ModelTensor[]): string | null {
  const bytesByType = new Map<number, number>()
  for (const t of tensors) if (t.shape.length >= 2) bytesByType.set(t.typeId, (bytesByType.get(t.typeId) ?? 0) + t.bytes)
  let best: number | null = null
  for (const [type, bytes] of bytesByType) if (best === null || bytes > (bytesByType.get(best) ?? 0)) best = type
  return best === null ? null : ggmlTypeName(best).toUpperCase()
}
