import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { writeFileAtomic } from '../lib/atomic-write'

export const RUNTIME_FILE = 'gpu-runtime.json'
/** Samples kept per GPU; the figure used is their median, so one disturbed launch does not move it far. */
const KEEP = 5
/** A learned runtime outside this range means the measurement was disturbed (another app took or freed VRAM). */
export const PLAUSIBLE_RUNTIME_MIB = { min: 50, max: 3000 } as const

const RuntimeFileSchema = z.object({
  version: z.literal(1),
  gpus: z.record(z.string(), z.object({ samplesMiB: z.array(z.number()).max(KEEP), updatedAt: z.string() })),
})
type RuntimeFile = z.infer<typeof RuntimeFileSchema>

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null
  const s = [...values].sort((a, b) => a - b)
  const mid = Math.floor(s.length / 2)
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

/**
 * What llama-server holds on this machine's GPU beyond its own buffers (CUDA
 * context, cuBLAS, pools), learned from launches: the server's measured GPU use
 * minus the fit's buffer estimate, per GPU model, in <home>/gpu-runtime.json.
 * An unreadable file is only a lost calibration: it reads as empty and is
 * rewritten by the next measurement.
 */
export class GpuRuntimeStore {
  private constructor(
    private readonly path: string,
    private data: RuntimeFile,
  ) {}

  static async open(home: string): Promise<GpuRuntimeStore> {
    const path = join(home, RUNTIME_FILE)
    let data: RuntimeFile = { version: 1, gpus: {} }
    try {
      const parsed = RuntimeFileSchema.safeParse(JSON.parse(await readFile(path, 'utf8')))
      if (parsed.success) data = parsed.data
    } catch {
      // none yet, or unreadable
    }
    return new GpuRuntimeStore(path, data)
  }

  /** The learned runtime of this GPU model (the median of its last samples), or null before any launch was measured. */
  runtimeMiB(gpuName: string): number | null {
    const m = median(this.data.gpus[gpuName]?.samplesMiB ?? [])
    return m === null ? null : Math.round(m)
  }

  /** Records one launch's measurement; an implausible one is ignored (returns false). */
  async record(gpuName: string, runtimeMiB: number, now: Date = new Date()): Promise<boolean> {
    if (!Number.isFinite(runtimeMiB) || runtimeMiB < PLAUSIBLE_RUNTIME_MIB.min || runtimeMiB > PLAUSIBLE_RUNTIME_MIB.max) return false
    const samples = [...(this.data.gpus[gpuName]?.samplesMiB ?? []), Math.round(runtimeMiB)].slice(-KEEP)
    this.data = { version: 1, gpus: { ...this.data.gpus, [gpuName]: { samplesMiB: samples, updatedAt: now.toISOString() } } }
    await writeFileAtomic(this.path, `${JSON.stringify(this.data, null, 2)}\n`)
    return true
  }
}
