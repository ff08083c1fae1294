import { parseStringPromise } from 'xml2js'
import { runOnce } from '../../lib/process/run-once'
import { smiTimeoutMessage } from './smi-probe'

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

/** The inventory from `nvidia-smi -q -x` parsed by xml2js with explicitArray off (node-nvidia-smi's JSON). */
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

const MAX_XML_CHARS = 16 * 1024 * 1024
/** The inventory's error when nvidia-smi cannot be found at all: with no NVML either, there is no driver. */
export const NVIDIA_SMI_NOT_FOUND = 'nvidia-smi was not found on PATH: install the NVIDIA driver (it ships nvidia-smi), or use NVML'

export interface InventoryOptions {
  readonly timeoutMs?: number
  /** The nvidia-smi to run (default: from PATH). */
  readonly smiExe?: string
  readonly env?: NodeJS.ProcessEnv
}

/**
 * The GPU inventory from `nvidia-smi -q -x`, once at start or on demand, never
 * in the sampling loop (it costs ~70–100 ms of CPU). Parsed the way
 * node-nvidia-smi does (xml2js, explicitArray off), but spawned by us: an
 * argument array without a shell, killed with its process group at the
 * timeout (see runOnce), its output bounded.
 */
export async function readGpuInventory(options: InventoryOptions = {}): Promise<GpuInventory | { readonly error: string }> {
  const timeoutMs = options.timeoutMs ?? 10_000
  const r = await runOnce(options.smiExe ?? 'nvidia-smi', ['-q', '-x'], timeoutMs, options.env ?? process.env, {
    maxOutputChars: MAX_XML_CHARS,
  })
  if (r.spawnError?.startsWith('ENOENT')) return { error: NVIDIA_SMI_NOT_FOUND }
  if (r.spawnError) return { error: `nvidia-smi -q -x could not be started (${r.spawnError})` }
  if (r.timedOut) return { error: smiTimeoutMessage(timeoutMs) }
  if (r.code !== 0) {
    const detail = (r.stderr.trim() || r.stdout.trim()).split('\n')[0]
    return { error: `nvidia-smi -q -x failed (exit ${r.code ?? 'signal'})${detail ? `: ${detail}` : ''}` }
  }
  return inventoryFromSmiXml(r.stdout)
}

/** The inventory from the text of `nvidia-smi -q -x`; an error (never a throw) for text that is not its XML. */
export async function inventoryFromSmiXml(xml: string): Promise<GpuInventory | { readonly error: string }> {
  try {
    const data: unknown = await parseStringPromise(xml, { explicitArray: false, trim: true })
    return inventoryFromSmiXmlJson(data) ?? { error: 'nvidia-smi -q -x printed no nvidia_smi_log' }
  } catch (err) {
    return { error: `nvidia-smi -q -x printed XML that does not parse: ${(err as Error).message.split('\n')[0]}` }
  }
}
