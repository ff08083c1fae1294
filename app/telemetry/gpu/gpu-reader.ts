import type { GpuBackendName, GpuSnapshot } from '../../contract/telemetry'
import { findNvidiaSmi } from './find-nvidia-smi'
import { openNvml, type Nvml } from './nvml'
import { nvmlLibraryCandidates } from './nvml-paths'
import { probeSmiFields } from './smi-probe'
import { SmiSampler } from './smi-sampler'

/** Which backend to use: automatic (NVML, then nvidia-smi), one forced, or none. */
export type GpuBackendSetting = 'auto' | GpuBackendName | 'off'

/** What one read asks for beyond the figures every read has. */
export interface GpuReadOptions {
  /**
   * NVML's total-energy counter (default true). The core asks for it only around requests: on an H100 it cost about
   * 0.6 ms of CPU a call (a CPU profile of an idle `serve`), a quarter of the idle budget at one read per 5 s tick.
   */
  readonly energy?: boolean
}

/** One way of reading the GPU. read() is cheap and never throws. */
export interface GpuReader {
  readonly backend: GpuBackendName | null
  read(options?: GpuReadOptions): GpuSnapshot
  /** Ends the reader (kills the nvidia-smi child, shuts NVML down). */
  close(): Promise<void>
  /** A reader that samples on its own clock (nvidia-smi's stream) follows this period; the others read on demand. */
  setIntervalMs?(ms: number): Promise<void>
  /**
   * Such a reader also says when fresh figures came (a line of nvidia-smi's stream) or its stream broke, so a
   * caller can follow its clock and learn at once when it stops.
   */
  onFresh?(listener: () => void): () => void
}

export interface GpuReaderOptions {
  readonly intervalMs: number
  readonly nvmlLibraries?: readonly string[]
  /** nvidia-smi to use; default: found on PATH, then in the Windows locations. */
  readonly smiExe?: string | null
  readonly env?: NodeJS.ProcessEnv
  readonly probeTimeoutMs?: number
}

export function unavailableGpu(reason: string): GpuSnapshot {
  return { available: false, reason, backend: null, stale: false, sampledAt: null, devices: [] }
}

class UnavailableReader implements GpuReader {
  readonly backend = null
  constructor(private readonly reason: string) {}
  read(): GpuSnapshot {
    return unavailableGpu(this.reason)
  }
  async close(): Promise<void> {}
}

class NvmlReader implements GpuReader {
  readonly backend = 'nvml' as const
  constructor(private readonly nvml: Nvml) {}
  read(options?: GpuReadOptions): GpuSnapshot {
    const devices = this.nvml.sample(options)
    if (devices.length === 0) return { ...unavailableGpu('NVML lists no GPU'), backend: 'nvml' }
    return { available: true, reason: null, backend: 'nvml', stale: false, sampledAt: Date.now(), devices }
  }
  async close(): Promise<void> {
    this.nvml.close()
  }
}

class SmiReader implements GpuReader {
  readonly backend = 'nvidia-smi' as const
  constructor(private readonly sampler: SmiSampler) {}
  read(): GpuSnapshot {
    const r = this.sampler.latest()
    return {
      available: r.devices.length > 0,
      reason: r.reason,
      backend: 'nvidia-smi',
      stale: r.stale,
      sampledAt: r.sampledAt,
      devices: r.devices,
    }
  }
  async close(): Promise<void> {
    await this.sampler.stop()
  }
  setIntervalMs(ms: number): Promise<void> {
    return this.sampler.setIntervalMs(ms)
  }
  onFresh(listener: () => void): () => void {
    const offSample = this.sampler.on('sample', () => listener())
    // A stream that broke (an exit, or the watchdog's kill of a silent child) is news too: its figures are stale now.
    const offExit = this.sampler.on('exit', () => listener())
    return () => {
      offSample()
      offExit()
    }
  }
}

function tryNvml(options: GpuReaderOptions): GpuReader | string {
  const r = openNvml(options.nvmlLibraries ?? nvmlLibraryCandidates())
  return r.ok ? new NvmlReader(r.nvml) : r.reason
}

async function trySmi(options: GpuReaderOptions): Promise<GpuReader | string> {
  const exe = options.smiExe === undefined ? findNvidiaSmi() : options.smiExe
  if (!exe) return 'nvidia-smi not found (looked on PATH and in the NVIDIA driver folders)'
  const probe = await probeSmiFields(exe, options.probeTimeoutMs ?? 5000, options.env)
  if (!probe.ok) return probe.reason
  const sampler = new SmiSampler({ exe, fields: probe.fields, intervalMs: options.intervalMs, env: options.env })
  sampler.start()
  return new SmiReader(sampler)
}

/**
 * Opens the GPU reader the setting asks for. `auto`: NVML in-process, else one
 * long-lived nvidia-smi, else a reader that says why there is no GPU data
 * (the rest of the app works without it). Never throws.
 */
export async function openGpuReader(setting: GpuBackendSetting, options: GpuReaderOptions): Promise<GpuReader> {
  if (setting === 'off') return new UnavailableReader('GPU monitoring is turned off in the settings')
  const reasons: string[] = []
  if (setting === 'auto' || setting === 'nvml') {
    const r = tryNvml(options)
    if (typeof r !== 'string') return r
    reasons.push(r)
  }
  if (setting === 'auto' || setting === 'nvidia-smi') {
    const r = await trySmi(options)
    if (typeof r !== 'string') return r
    reasons.push(r)
  }
  return new UnavailableReader(`No NVIDIA GPU data: ${reasons.join('; ')}`)
}
