import { createRequire } from 'node:module'

export interface GpuInventoryEntry {
  readonly index: number
  readonly productName: string | null
  readonly uuid: string | null
  /** WDDM or TCC/MCDM on Windows; null on Linux ("N/A"). */
  readonly driverModel: string | null
  readonly memoryTotalMiB: number | null
}

export interface GpuInventory {
  readonly driverVersion: string | null
  readonly cudaVersion: string | null
  readonly gpus: readonly GpuInventoryEntry[]
}

type Json = Record<string, unknown>
const obj = (v: unknown): Json | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null)
const text = (v: unknown): string | null => {
  if (typeof v !== 'string') return null
  const t = v.trim()
  return t === '' || t === 'N/A' || /^\[.*\]$/.test(t) ? null : t
}

/** The inventory from node-nvidia-smi's JSON (`nvidia-smi -q -x` through xml2js, explicitArray off). */
export function inventoryFromSmiXmlJson(data: unknown): GpuInventory | null {
  const log = obj(obj(data)?.nvidia_smi_log)
  if (!log) return null
  const raw = log.gpu
  const gpus = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map(obj).filter((g): g is Json => g !== null)
  return {
    driverVersion: text(log.driver_version),
    cudaVersion: text(log.cuda_version),
    gpus: gpus.map((g, i) => {
      const minorText = text(g.minor_number)
      const minor = minorText === null ? Number.NaN : Number(minorText)
      const total = /^(\d+) MiB$/.exec(text(obj(g.fb_memory_usage)?.total) ?? '')
      return {
        index: Number.isInteger(minor) ? minor : i,
        productName: text(g.product_name),
        uuid: text(g.uuid),
        driverModel: text(obj(g.driver_model)?.current_dm),
        memoryTotalMiB: total ? Number(total[1]) : null,
      }
    }),
  }
}

type NodeNvidiaSmi = (callback: (err: unknown, data: unknown) => void) => void

/**
 * The GPU inventory through node-nvidia-smi, once at start or on demand, never
 * in the sampling loop (one `nvidia-smi -q -x` costs ~100 ms of CPU). It runs
 * nvidia-smi through a shell from PATH and has no timeout of its own: after
 * timeoutMs we answer with an error (its child is left to finish).
 */
export function readGpuInventory(timeoutMs = 10_000): Promise<GpuInventory | { readonly error: string }> {
  let smi: NodeNvidiaSmi
  try {
    smi = createRequire(import.meta.url)('node-nvidia-smi') as NodeNvidiaSmi
  } catch (err) {
    return Promise.resolve({ error: `node-nvidia-smi could not be loaded: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` })
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ error: `nvidia-smi -q -x did not answer within ${timeoutMs} ms` }), timeoutMs)
    smi((err, data) => {
      clearTimeout(timer)
      if (err) return resolve({ error: `nvidia-smi -q -x failed: ${(err instanceof Error ? err.message : String(err)).trim().split('\n')[0]}` })
      resolve(inventoryFromSmiXmlJson(data) ?? { error: 'nvidia-smi -q -x printed no nvidia_smi_log' })
    })
  })
}
