/** One process that uses the NVIDIA GPU, as the platform reports it. */
export interface GpuProcessUse {
  readonly pid: number
  /** Its image name as the platform gives it ("Cyberpunk2077.exe", "python3"); null when no table names it. */
  readonly name: string | null
  /** Dedicated GPU memory it holds, MiB; null where the platform does not say (NVML under WDDM: "N/A"). */
  readonly dedicatedMiB: number | null
  /** Its use of the GPU's 3D engine, % (Windows PDH only; null elsewhere, and at the first read of a rate counter). */
  readonly engine3dPct: number | null
}

/**
 * Which programs hold the NVIDIA GPU: Windows PDH (per-process counters on the NVIDIA adapter's LUID), else NVML's
 * running-process lists, else nvidia-smi --query-compute-apps. Read only when needed (a low-VRAM warning about to
 * show, the game watch's slow cadence), never while the GPU sleeps: see gated-gpu-processes.ts.
 */
export interface GpuProcessSource {
  /** One reading; null when the platform refused (the reason in `problem`). */
  read(): Promise<readonly GpuProcessUse[] | null>
  /** Why the last read gave nothing; null after a good one. */
  readonly problem: string | null
  close(): Promise<void>
}
