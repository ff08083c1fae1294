import type { GpuDevice } from '../../app/contract/telemetry'
import type { TelemetryReading, TelemetryService } from '../../app/telemetry/telemetry-service'

/**
 * A scripted GPU for the low-VRAM test (this machine has no NVIDIA GPU): one
 * 8 GiB card whose free VRAM follows `freeMiBPerSecond`, one entry per second
 * since start (the last one holds), less what `usedByOthersMiB` says is taken
 * (e.g. by the server, scripted by a test). It has TelemetryService's public shape
 * (start/stop/running/latest/setServerPid); the rest of the core is real.
 */
export function fakeVramTelemetry(
  freeMiBPerSecond: readonly number[],
  extra: { readonly usedByOthersMiB?: () => number } = {},
): TelemetryService {
  const TOTAL = 8188
  let startedAt: number | null = null
  let serverPid: number | null = null
  const fake = {
    get running(): boolean {
      return startedAt !== null
    },
    async start(): Promise<void> {
      startedAt ??= Date.now()
    },
    async stop(): Promise<void> {
      startedAt = null
    },
    setServerPid(pid: number | null): void {
      serverPid = pid
    },
    latest(): TelemetryReading {
      if (startedAt === null) return { gpu: null, cpu: null }
      const second = Math.floor((Date.now() - startedAt) / 1000)
      const free = (freeMiBPerSecond[Math.min(second, freeMiBPerSecond.length - 1)] ?? TOTAL) - (extra.usedByOthersMiB?.() ?? 0)
      const device: GpuDevice = {
        index: 0,
        name: 'NVIDIA GeForce RTX 4060 Laptop GPU (scripted)',
        memoryTotalMiB: TOTAL,
        memoryUsedMiB: TOTAL - free,
        memoryFreeMiB: free,
        memoryReservedMiB: 0,
        temperatureC: 58 + (second % 5),
        utilizationPct: 35,
        powerW: 42 + (second % 7),
        powerLimitW: 115,
        smClockMHz: 2100,
        pstate: 'P0',
        throttleReasons: [],
      }
      return {
        gpu: { available: true, reason: null, backend: 'nvml', stale: false, sampledAt: Date.now(), devices: [device] },
        cpu: {
          systemPct: 55 + (second % 10),
          ramTotalMiB: 32_000,
          ramFreeMiB: 9_000,
          server: serverPid === null ? null : { pid: serverPid, cpuPct: 38 + (second % 6), rssMiB: 900 },
          heavyApps: [],
          topProcesses: [],
        },
      }
    },
  }
  return fake as unknown as TelemetryService
}
