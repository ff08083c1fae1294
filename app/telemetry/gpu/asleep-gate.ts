import type { GpuDevice, GpuSnapshot } from '../../contract/telemetry'
import type { DevicePowerSource, GpuPowerState } from '../../platform/device-power'
import type { GpuReader, GpuReadOptions } from './gpu-reader'

/** The snapshot's reason while the GPU sleeps (the renderer and the CLI recognise "asleep"). */
export function asleepReason(detail: string | null): string {
  return `The NVIDIA GPU is asleep${detail ? ` (${detail})` : ''}: it is not read, so that it stays asleep.`
}

/** What is still true of a sleeping GPU: which it is and its total memory; every live figure is unknown. */
function asleepDevice(device: GpuDevice): GpuDevice {
  return {
    index: device.index,
    name: device.name,
    memoryTotalMiB: device.memoryTotalMiB,
    memoryUsedMiB: null,
    memoryFreeMiB: null,
    memoryReservedMiB: device.memoryReservedMiB,
    temperatureC: null,
    utilizationPct: null,
    powerW: null,
    powerLimitW: null,
    smClockMHz: null,
    pstate: null,
    throttleReasons: null,
  }
}

export interface AsleepGateOptions {
  readonly power: DevicePowerSource
  /** Opens the real reader (NVML or nvidia-smi); called only while the GPU is awake or its state unknown. */
  readonly open: () => Promise<GpuReader>
  /** Hears each change of the power state, once (the log). */
  readonly onPowerChange?: (state: GpuPowerState) => void
}

/**
 * The one gate in front of every GPU query of the telemetry: before each read the GPU's power state is read from
 * the operating system (never from the driver). While the GPU sleeps the real reader is closed (no NVML handle, no
 * nvidia-smi child: each would wake it) and the snapshot says "asleep" with the last known total; the first read
 * that finds it awake opens the reader again, so figures return at the next tick. While our server holds the GPU it
 * is awake anyway and this costs one small sysfs or CfgMgr32 read per tick.
 */
export class AsleepGate implements GpuReader {
  private inner: GpuReader | null = null
  private opening: Promise<void> | null = null
  private closing: Promise<void> = Promise.resolve()
  private closed = false
  private lastKnown: GpuSnapshot | null = null
  private lastPower: GpuPowerState['kind'] | null = null
  private intervalMs: number | null = null
  private readonly freshListeners = new Set<() => void>()
  private readonly offInner: Array<() => void> = []

  constructor(private readonly options: AsleepGateOptions) {}

  get backend(): GpuReader['backend'] {
    return this.inner?.backend ?? this.lastKnown?.backend ?? null
  }

  /** Whether the real reader is open now (tests and the bench count the queries it makes). */
  get reading(): boolean {
    return this.inner !== null
  }

  /** Opens the reader at once unless the GPU sleeps; resolves once it is open (or left closed). */
  async ready(): Promise<void> {
    if (this.power().kind !== 'asleep') await this.openInner()
  }

  read(options?: GpuReadOptions): GpuSnapshot {
    const power = this.power()
    if (power.kind === 'asleep') {
      if (this.inner) this.closeInner()
      return this.asleepSnapshot(power)
    }
    if (!this.inner) {
      void this.openInner()
      return this.lastKnown ?? { available: false, reason: 'Reading the GPU…', backend: null, stale: true, sampledAt: null, devices: [] }
    }
    const snapshot = this.inner.read(options)
    if (snapshot.available) this.lastKnown = snapshot
    return snapshot
  }

  async close(): Promise<void> {
    this.closed = true
    await this.opening
    this.closeInner()
    await this.closing
  }

  async setIntervalMs(ms: number): Promise<void> {
    this.intervalMs = ms
    await this.inner?.setIntervalMs?.(ms)
  }

  onFresh(listener: () => void): () => void {
    this.freshListeners.add(listener)
    return () => this.freshListeners.delete(listener)
  }

  private power(): GpuPowerState {
    const state = this.options.power.read()
    if (state.kind !== this.lastPower) {
      this.lastPower = state.kind
      this.options.onPowerChange?.(state)
    }
    return state
  }

  private asleepSnapshot(power: GpuPowerState): GpuSnapshot {
    const known = this.lastKnown
    return {
      available: false,
      asleep: true,
      reason: asleepReason(power.detail),
      backend: known?.backend ?? null,
      stale: false,
      sampledAt: known?.sampledAt ?? null,
      devices: (known?.devices ?? []).map(asleepDevice),
    }
  }

  private openInner(): Promise<void> {
    if (this.inner || this.closed) return Promise.resolve()
    this.opening ??= this.closing
      .then(() => this.options.open())
      .then(async (reader) => {
        this.opening = null
        // Closed, or the GPU fell asleep while the reader opened: give it back at once.
        if (this.closed || this.options.power.read().kind === 'asleep') return reader.close()
        this.inner = reader
        if (reader.onFresh) this.offInner.push(reader.onFresh(() => this.freshListeners.forEach((l) => l())))
        if (this.intervalMs !== null) await reader.setIntervalMs?.(this.intervalMs)
        // Say so at once: the owner ticks on it instead of waiting for its next clock.
        this.freshListeners.forEach((l) => l())
      })
    return this.opening
  }

  private closeInner(): void {
    const inner = this.inner
    if (!inner) return
    this.inner = null
    this.offInner.splice(0).forEach((off) => off())
    this.closing = this.closing.then(() => inner.close()).catch(() => {})
  }
}
