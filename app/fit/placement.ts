import { FitError } from './fit-error'
import type { GgufModel, ModelTensor } from './gguf-model'

export type Device = 'gpu' | 'host'

/** A buffer override: tensors whose name matches go to that device (first match wins, as in llama.cpp). */
export interface TensorOverride {
  readonly pattern: RegExp
  readonly device: Device
  readonly source: string
}

export interface PlacementInput {
  readonly nGpuLayers: number
  readonly nCpuMoe: number
  readonly cpuMoe: boolean
  readonly overrideTensors: readonly string[]
}

const EXPERTS = 'ffn_(up|down|gate|gate_up)_(ch|)exps'

/** Parses "-ot" values: comma-separated "regex=BUFFER" pairs; CPU buffers go to the host, anything else (CUDA0…) to the GPU. */
export function parseOverrides(values: readonly string[]): TensorOverride[] {
  const out: TensorOverride[] = []
  for (const value of values) {
    for (const pair of value.split(',')) {
      if (pair.trim() === '') continue
      const eq = pair.lastIndexOf('=')
      if (eq <= 0 || eq === pair.length - 1)
        throw new FitError(`-ot "${pair}": expected "regex=BUFFER", e.g. "blk\\.[0-9]\\.ffn_.*_exps=CPU"`)
      const source = pair.slice(0, eq)
      let pattern: RegExp
      try {
        pattern = new RegExp(source)
      } catch {
        throw new FitError(`-ot "${pair}": "${source}" is not a valid regular expression`)
      }
      const buffer = pair
        .slice(eq + 1)
        .trim()
        .toUpperCase()
      out.push({ pattern, device: buffer.startsWith('CPU') ? 'host' : 'gpu', source: pair })
    }
  }
  return out
}

/** The overrides llama-server builds: -ot first, then --cpu-moe or --n-cpu-moe N (experts of layers 0..N-1 on the CPU). */
export function placementOverrides(input: PlacementInput): TensorOverride[] {
  const out = parseOverrides(input.overrideTensors)
  if (input.cpuMoe) out.push({ pattern: new RegExp(`\\.${EXPERTS}`), device: 'host', source: '--cpu-moe' })
  for (let i = 0; i < input.nCpuMoe; i++)
    out.push({ pattern: new RegExp(`blk\\.${i}\\.${EXPERTS}`), device: 'host', source: `--n-cpu-moe ${input.nCpuMoe}` })
  return out
}

/** First layer on the GPU: llama.cpp offloads the output first, then the last layers. */
export function firstGpuLayer(model: GgufModel, nGpuLayers: number): number {
  return Math.max(model.blockCount + 1 - Math.max(0, nGpuLayers), 0)
}

export function layerDevice(model: GgufModel, layer: number, nGpuLayers: number): Device {
  return layer >= firstGpuLayer(model, nGpuLayers) ? 'gpu' : 'host'
}

/** Where one tensor's weights live. token_embd is always on the host (llama.cpp keeps the input layer on the CPU). */
export function tensorDevice(model: GgufModel, tensor: ModelTensor, nGpuLayers: number, overrides: readonly TensorOverride[]): Device {
  for (const o of overrides) if (o.pattern.test(tensor.name)) return o.device
  if (tensor.layer !== null) return layerDevice(model, tensor.layer, nGpuLayers)
  if (tensor.name.startsWith('token_embd')) return 'host'
  return model.blockCount >= firstGpuLayer(model, nGpuLayers) ? 'gpu' : 'host'
}
