import type { CpuSnapshot, GpuSnapshot } from '../contract/telemetry'
import { Listeners } from '../lib/listeners'
import { CpuMonitor } from './cpu/cpu-monitor'
import { DEFAULT_HEAVY_APPS, withExtraHeavyApps, type HeavyAppList } from './cpu/heavy-apps'
import { platformProcessSource } from './cpu/platform-processes'
import type { ProcessSource } from '../platform/process-source'
import { openGpuReader, type GpuBackendSetting, type GpuReader, type GpuReaderOptions, type GpuReadOptions } from './gpu/gpu-reader'
import { PdhSharedGpuMemory, type SharedGpuSample } from '../platform/win32/pdh-shared-memory'
import type { DevicePowerSource } from '../platform/device-power'
import { platformDevicePower } from '../platform/device-power-source'
import { openGatedGpuReader } from './gpu/open-gated-reader'

export interface TelemetryOptions {
  /** 'auto' (NVML, then nvidia-smi), a forced backend, or 'off'. */
  readonly gpuBackend?: GpuBackendSetting
  /** Sampling period while started (1000 = 1 Hz). */
  readonly intervalMs?: number
  /** Full process-table scan period for heavy apps and top processes (5–10 s). */
  readonly scanIntervalMs?: number
  readonly heavyApps?: HeavyAppList
  /** Default: /proc on Linux, Toolhelp through koffi on Windows, none elsewhere. */
  readonly processes?: ProcessSource | null
  /**
   * Shared (system) GPU memory per process: PDH on Windows (default), none
   * elsewhere. Returns the source or why there is none.
   */
  readonly sharedGpu?: (() => SharedGpuSource | string) | null
  /** Where to find NVML / nvidia-smi (tests point these at fakes). */
  readonly gpu?: Omit<GpuReaderOptions, 'intervalMs'>
  /**
   * The owner's clock drives sampling (the core calls sample() on its one
   * cadence) instead of a timer of the service's own.
   */
  readonly driven?: boolean
  /**
   * The NVIDIA GPU's power state, read before each GPU query so that a sleeping GPU is left asleep (default: the
   * platform's, through `LLAMA_TRAY_SYSFS` on Linux; null: no gate).
   */
  readonly devicePower?: DevicePowerSource | null
}

export interface TelemetryReading {
  readonly gpu: GpuSnapshot | null
  readonly cpu: CpuSnapshot | null
}

/** What the service needs from a shared-GPU-memory reader (PdhSharedGpuMemory on Windows). */
export interface SharedGpuSource {
  sample(): SharedGpuSample | null
  readonly lastProblem: string | null
  close(): void
}

interface TelemetryEvents {
  sample: (reading: TelemetryReading) => void
  /** A GPU reader with its own clock brought fresh figures (once per burst: one line per GPU). */
  gpuFresh: () => void
}

/**
 * GPU and CPU telemetry, sampled only while started: the lead starts it while a
 * server runs or the dashboard is visible, since polling keeps a laptop's
 * discrete GPU awake. latest() is cheap; the snapshot builder passes it through.
 */
/** What the core uses of the telemetry (a test may pass a fake GPU sequence). */
export type TelemetrySource = Pick<TelemetryService, 'start' | 'stop' | 'running' | 'latest' | 'setServerPid'> &
  Partial<
    Pick<
      TelemetryService,
      'setExtraHeavyApps' | 'sample' | 'setServerIdle' | 'sharedGpuMemoryMiB' | 'setGpuIntervalMs' | 'setWatched' | 'onGpuFresh'
    >
  >

export class TelemetryService {
  private readonly events = new Listeners<TelemetryEvents>()
  private readonly cpu: CpuMonitor
  private reader: GpuReader | null = null
  private opening: Promise<void> | null = null
  private timer: NodeJS.Timeout | null = null
  private started = false
  private reading: TelemetryReading = { gpu: null, cpu: null }
  private generation = 0
  private serverPid: number | null = null
  private shared: SharedGpuSource | string | null = null
  private sharedSample: SharedGpuSample | null = null
  /** The GPU reader's period once set by the lead (null: the options' intervalMs). */
  private gpuIntervalMs: number | null = null
  private freshPending = false
  private devicePower: DevicePowerSource | null | undefined

  constructor(private readonly options: TelemetryOptions = {}) {
    this.cpu = new CpuMonitor({
      processes: options.processes === undefined ? platformProcessSource() : options.processes,
      heavyApps: options.heavyApps,
      scanIntervalMs: options.scanIntervalMs ?? 5000,
    })
  }

  get running(): boolean {
    return this.started
  }

  on<K extends keyof TelemetryEvents>(event: K, listener: TelemetryEvents[K]): () => void {
    return this.events.on(event, listener)
  }

  /**
   * Calls `listener` when a GPU reader with its own clock (nvidia-smi's stream) brings fresh figures, once
   * per burst (one line per GPU), so the owner can tick on that clock instead of waking on one of its own.
   */
  onGpuFresh(listener: () => void): () => void {
    return this.events.on('gpuFresh', listener)
  }

  /** Counts these process names as heavy apps too, besides the base list (the user's setting). */
  setExtraHeavyApps(processNames: readonly string[]): void {
    this.cpu.setHeavyApps(withExtraHeavyApps(this.options.heavyApps ?? DEFAULT_HEAVY_APPS, processNames))
  }

  /** Whether the server is idle (no request): the process table is then scanned rarely. */
  setServerIdle(idle: boolean): void {
    this.cpu.setIdle(idle)
  }

  /**
   * The period of a GPU reader with its own clock (nvidia-smi's -lms stream), now and at the next
   * start; NVML reads on each sample and ignores it. The core slows it while nobody watches.
   */
  setGpuIntervalMs(ms: number): void {
    if (ms === this.gpuIntervalMs) return
    this.gpuIntervalMs = ms
    void this.reader?.setIntervalMs?.(ms)
  }

  /** Whether a dashboard shows the figures (unwatched and idle, the process table is left alone). */
  setWatched(watched: boolean): void {
    this.cpu.setWatched(watched)
  }

  /** The llama-server whose own CPU and memory to report (null: none). */
  setServerPid(pid: number | null): void {
    this.cpu.setServerPid(pid)
    this.serverPid = pid
    if (pid === null) this.sharedSample = null
  }

  /**
   * Shared (system) GPU memory of `pid` in MiB at the last sample (0 when PDH
   * lists no GPU memory for it); null where it is not measured (not Windows,
   * no counters, not sampled yet). The live advisor's sysmem-fallback rule reads it.
   */
  sharedGpuMemoryMiB(pid: number): number | null {
    const sample = this.sharedSample
    return sample ? (sample.byPid.get(pid) ?? 0) : null
  }

  /** Why shared GPU memory is not measured; null when it is (or not tried yet). */
  get sharedGpuProblem(): string | null {
    const shared = this.shared
    return typeof shared === 'string' ? shared : (shared?.lastProblem ?? null)
  }

  /** Starts sampling (idempotent). Resolves once the GPU backend is chosen. */
  async start(): Promise<void> {
    if (this.started) return this.opening ?? undefined
    this.started = true
    const generation = ++this.generation
    const intervalMs = this.options.intervalMs ?? 1000
    if (this.shared === null) {
      const open =
        this.options.sharedGpu === undefined
          ? process.platform === 'win32'
            ? () => PdhSharedGpuMemory.open()
            : null
          : this.options.sharedGpu
      this.shared = open ? open() : 'shared GPU memory is measured on Windows only (PDH)'
    }
    if (!this.options.driven) this.timer = setInterval(() => this.tick(), intervalMs)
    this.tick()
    const gpuIntervalMs = this.gpuIntervalMs ?? intervalMs
    const setting = this.options.gpuBackend ?? 'auto'
    const open = (): Promise<GpuReader> => openGpuReader(setting, { ...this.options.gpu, intervalMs: gpuIntervalMs })
    this.devicePower ??= this.options.devicePower === undefined ? platformDevicePower() : this.options.devicePower
    this.opening = (setting === 'off' || this.devicePower === null ? open() : openGatedGpuReader(this.devicePower, open)).then(
      async (reader) => {
        if (generation !== this.generation) return reader.close() // stopped meanwhile
        this.reader = reader
        reader.onFresh?.(() => this.freshBurst())
        // The pace may have changed while the reader opened.
        if (this.gpuIntervalMs !== null && this.gpuIntervalMs !== gpuIntervalMs) await reader.setIntervalMs?.(this.gpuIntervalMs)
        this.tick()
      },
    )
    return this.opening
  }

  /** Stops sampling and every child process; latest() keeps the last reading. */
  async stop(): Promise<void> {
    this.generation++
    this.started = false
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    const reader = this.reader
    this.reader = null
    await reader?.close()
    if (this.shared && typeof this.shared !== 'string') this.shared.close()
    this.shared = null
    this.sharedSample = null
  }

  latest(): TelemetryReading {
    return this.reading
  }

  /** One sample now, for a `driven` service while started (a timer-driven one samples itself); `gpu` says what to read. */
  sample(gpu?: GpuReadOptions): TelemetryReading {
    if (this.options.driven && this.started) this.tick(gpu)
    return this.reading
  }

  /** The lines of one period (one per GPU) come together: the owner hears of them once, after the last. */
  private freshBurst(): void {
    if (this.freshPending) return
    this.freshPending = true
    setImmediate(() => {
      this.freshPending = false
      if (this.started) this.events.emit('gpuFresh')
    })
  }

  private tick(options?: GpuReadOptions): void {
    let gpu = this.reading.gpu
    try {
      if (this.reader) gpu = this.reader.read(options)
    } catch (err) {
      gpu = {
        available: false,
        reason: `GPU read failed: ${err instanceof Error ? err.message : String(err)}`,
        backend: this.reader?.backend ?? null,
        stale: true,
        sampledAt: gpu?.sampledAt ?? null,
        devices: [],
      }
    }
    // PDH's process table is only worth reading while a server runs (the advisor asks about its pid).
    if (this.serverPid !== null && this.shared && typeof this.shared !== 'string') this.sharedSample = this.shared.sample()
    this.reading = { gpu, cpu: this.cpu.tick() }
    this.events.emit('sample', this.reading)
  }
}
