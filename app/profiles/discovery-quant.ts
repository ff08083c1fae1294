import { ggmlTypeName } from '../fit/ggml-types'
import type { ModelTensor } from '../fit/gguf-model'

export { quantisationFromName } from '../models/quant-name'

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
