import type { GpuProcessSource, GpuProcessUse } from '../../platform/gpu-processes'
import { runOnce } from '../../lib/process/run-once'
import { findNvidiaSmi } from './find-nvidia-smi'
import { SMI_COMPUTE_APPS_QUERY, parseComputeApps } from './gpu-process-parsing'
import { openNvml, type Nvml } from './nvml'
import { CSV_FORMAT } from './smi-probe'

export interface NvmlGpuProcessesOptions {
  readonly nvmlLibraries?: readonly string[]
  /** nvidia-smi to use where NVML is missing; default: found on PATH, then in the driver folders. */
  readonly smiExe?: string | null
  readonly env?: NodeJS.ProcessEnv
  readonly timeoutMs?: number
}

/**
 * Linux and elsewhere: NVML's running-process lists (compute and graphics; NVML opened for each read), else
 * one `nvidia-smi --query-compute-apps` run per read (reads are rare: a low-VRAM warning about to show). Gives pids
 * and memory; names come from the process table, or nvidia-smi's own.
 */
export class NvmlGpuProcesses implements GpuProcessSource {
  problem: string | null = null

  constructor(private readonly options: NvmlGpuProcessesOptions = {}) {}

  async read(): Promise<readonly GpuProcessUse[] | null> {
    // Opened for this read only: a handle held between rare reads could keep a laptop's GPU from powering down.
    const opened = openNvml(this.options.nvmlLibraries)
    let listed: ReturnType<Nvml['runningProcesses']> = null
    if (opened.ok) {
      try {
        listed = opened.nvml.runningProcesses()
      } finally {
        opened.nvml.close()
      }
    }
    if (listed) {
      this.problem = null
      return listed.map((p) => ({ pid: p.pid, name: null, dedicatedMiB: p.usedMiB, engine3dPct: null }))
    }
    return this.readSmi(opened.ok ? 'this NVML has no running-process calls' : opened.reason)
  }

  async close(): Promise<void> {}

  private async readSmi(nvmlReason: string): Promise<readonly GpuProcessUse[] | null> {
    const exe = this.options.smiExe === undefined ? findNvidiaSmi() : this.options.smiExe
    if (!exe) {
      this.problem = `${nvmlReason}; nvidia-smi not found`
      return null
    }
    const r = await runOnce(
      exe,
      [`--query-compute-apps=${SMI_COMPUTE_APPS_QUERY}`, CSV_FORMAT],
      this.options.timeoutMs ?? 5000,
      this.options.env,
    )
    if (r.code !== 0) {
      this.problem = `${nvmlReason}; nvidia-smi --query-compute-apps failed (exit ${r.code ?? 'signal'})`
      return null
    }
    this.problem = null
    return parseComputeApps(r.stdout)
  }
}
