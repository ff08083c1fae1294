import { join } from 'node:path'
import { z } from 'zod'
import { versionedCodec } from '../lib/json-store/json-codec'
import type { JsonStore } from '../lib/json-store/json-store'
import { openJsonStore } from '../lib/json-store/registry'

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

const runtimeCodec = versionedCodec({ schema: RuntimeFileSchema, version: 1 })

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
 * A damaged file is only a lost calibration: it is set aside (`.corrupt-<time>`,
 * named in `messages`) and the next measurement starts a new one.
 */
export class GpuRuntimeStore {
  private constructor(private readonly store: JsonStore<RuntimeFile>) {}

  /** The one store of this home's file in this process (every opener shares it). */
  static async open(home: string): Promise<GpuRuntimeStore> {
    const store = openJsonStore<RuntimeFile>({
      path: join(home, RUNTIME_FILE),
      label: 'GPU runtime file',
      codec: runtimeCodec,
      defaults: () => ({ version: 1, gpus: {} }),
    })
    await store.load()
    return new GpuRuntimeStore(store)
  }

  /** Sentences about the latest read: a damaged file set aside, a backup restored. */
  get messages(): readonly string[] {
    return this.store.notices
  }

  /** The learned runtime of this GPU model (the median of its last samples), or null before any launch was measured. */
  runtimeMiB(gpuName: string): number | null {
    const m = median(this.store.value.gpus[gpuName]?.samplesMiB ?? [])
    return m === null ? null : Math.round(m)
  }

  /** Records one launch's measurement; an implausible one is ignored (returns false). */
  async record(gpuName: string, runtimeMiB: number, now: Date = new Date()): Promise<boolean> {
    if (!Number.isFinite(runtimeMiB) || runtimeMiB < PLAUSIBLE_RUNTIME_MIB.min || runtimeMiB > PLAUSIBLE_RUNTIME_MIB.max) return false
    await this.store.update((file) => {
      const samples = [...(file.gpus[gpuName]?.samplesMiB ?? []), Math.round(runtimeMiB)].slice(-KEEP)
      return { version: 1, gpus: { ...file.gpus, [gpuName]: { samplesMiB: samples, updatedAt: now.toISOString() } } }
    })
    return true
  }
}
