import type { GpuDevice } from '../../contract/telemetry'
import { loadKoffi, type Koffi } from '../../platform/koffi'
import { nvmlLibraryCandidates } from './nvml-paths'
import { decodeThrottleMask } from './smi-fields'
import { NVML_PROCESS_INFO_SIZE, decodeNvmlProcessInfos, mergeNvmlProcesses, type NvmlProcess } from './gpu-process-parsing'

const NVML_SUCCESS = 0
const NVML_ERROR_INSUFFICIENT_SIZE = 7
const NVML_TEMPERATURE_GPU = 0
const NVML_CLOCK_SM = 1
const NVML_PSTATE_UNKNOWN = 32
const MIB = 1024 * 1024
/** NVML_STRUCT_VERSION(Memory, 2): sizeof(nvmlMemory_v2_t) | 2 << 24. */
const MEMORY_V2_VERSION = 40 | (2 << 24)

type Out<T> = [T | null]
type Call<A extends unknown[]> = (...args: A) => number

/** The NVML calls we use; an optional one is null when the library lacks the symbol. */
interface NvmlBindings {
  init: Call<[]>
  shutdown: Call<[]> | null
  errorString: ((code: number) => string) | null
  getCount: Call<[Out<number>]>
  getHandle: Call<[number, Out<bigint>]>
  getName: Call<[bigint, Buffer, number]> | null
  getMemoryV2: Call<[bigint, { version: number; total?: bigint; reserved?: bigint; free?: bigint; used?: bigint }]> | null
  getMemoryV1: Call<[bigint, { total?: bigint; free?: bigint; used?: bigint }]> | null
  getTemperature: Call<[bigint, number, Out<number>]> | null
  getUtilization: Call<[bigint, { gpu?: number; memory?: number }]> | null
  getPower: Call<[bigint, Out<number>]> | null
  getPowerLimit: Call<[bigint, Out<number>]> | null
  getTotalEnergy: Call<[bigint, Out<bigint | number>]> | null
  getClock: Call<[bigint, number, Out<number>]> | null
  getPstate: Call<[bigint, Out<number>]> | null
  getThrottleReasons: Call<[bigint, Out<bigint | number>]> | null
  getDriverVersion: Call<[Buffer, number]> | null
  getCudaVersion: Call<[Out<number>]> | null
  /** nvmlDeviceGetComputeRunningProcesses_v3 / GraphicsRunningProcesses_v3: (device, *count, nvmlProcessInfo_t *infos). */
  getComputeProcesses: Call<[bigint, [number], Buffer | null]> | null
  getGraphicsProcesses: Call<[bigint, [number], Buffer | null]> | null
}

export interface NvmlInventory {
  readonly driverVersion: string | null
  /** e.g. "13.0". */
  readonly cudaVersion: string | null
}

export type NvmlOpenResult = { readonly ok: true; readonly nvml: Nvml } | { readonly ok: false; readonly reason: string }

function bind(koffi: Koffi, lib: ReturnType<Koffi['load']>): NvmlBindings {
  const optional = <T>(declare: () => unknown): T | null => {
    try {
      return declare() as T
    } catch {
      return null // missing symbol (older driver): that figure stays null
    }
  }
  const Memory2 = koffi.struct({ version: 'uint32_t', total: 'uint64_t', reserved: 'uint64_t', free: 'uint64_t', used: 'uint64_t' })
  const Memory1 = koffi.struct({ total: 'uint64_t', free: 'uint64_t', used: 'uint64_t' })
  const Utilization = koffi.struct({ gpu: 'uint32_t', memory: 'uint32_t' })
  // Required: without these there is nothing to read (a missing one throws, caught by openNvml).
  const required = {
    init: lib.func('int nvmlInit_v2()') as Call<[]>,
    getCount: lib.func('int nvmlDeviceGetCount_v2(_Out_ uint32_t *count)') as Call<[Out<number>]>,
    getHandle: lib.func('int nvmlDeviceGetHandleByIndex_v2(uint32_t index, _Out_ void **device)') as Call<[number, Out<bigint>]>,
  }
  return {
    ...required,
    shutdown: optional(() => lib.func('int nvmlShutdown()')),
    errorString: optional(() => lib.func('const char *nvmlErrorString(int result)')),
    getName: optional(() => lib.func('int nvmlDeviceGetName(void *device, _Out_ uint8_t *name, uint32_t length)')),
    getMemoryV2: optional(() => lib.func('nvmlDeviceGetMemoryInfo_v2', 'int', ['void *', koffi.inout(koffi.pointer(Memory2))])),
    getMemoryV1: optional(() => lib.func('nvmlDeviceGetMemoryInfo', 'int', ['void *', koffi.out(koffi.pointer(Memory1))])),
    getTemperature: optional(() => lib.func('int nvmlDeviceGetTemperature(void *device, int sensor, _Out_ uint32_t *temp)')),
    getUtilization: optional(() => lib.func('nvmlDeviceGetUtilizationRates', 'int', ['void *', koffi.out(koffi.pointer(Utilization))])),
    getPower: optional(() => lib.func('int nvmlDeviceGetPowerUsage(void *device, _Out_ uint32_t *milliwatts)')),
    getPowerLimit: optional(() => lib.func('int nvmlDeviceGetEnforcedPowerLimit(void *device, _Out_ uint32_t *milliwatts)')),
    getTotalEnergy: optional(() => lib.func('int nvmlDeviceGetTotalEnergyConsumption(void *device, _Out_ uint64_t *millijoules)')),
    getClock: optional(() => lib.func('int nvmlDeviceGetClockInfo(void *device, int type, _Out_ uint32_t *mhz)')),
    getPstate: optional(() => lib.func('int nvmlDeviceGetPerformanceState(void *device, _Out_ int *pstate)')),
    // R535+ name first, then the older one.
    getThrottleReasons:
      optional(() => lib.func('int nvmlDeviceGetCurrentClocksEventReasons(void *device, _Out_ uint64_t *reasons)')) ??
      optional(() => lib.func('int nvmlDeviceGetCurrentClocksThrottleReasons(void *device, _Out_ uint64_t *reasons)')),
    getDriverVersion: optional(() => lib.func('int nvmlSystemGetDriverVersion(_Out_ uint8_t *version, uint32_t length)')),
    getCudaVersion: optional(() => lib.func('int nvmlSystemGetCudaDriverVersion_v2(_Out_ int *version)')),
    getComputeProcesses: optional(() =>
      lib.func('int nvmlDeviceGetComputeRunningProcesses_v3(void *device, _Inout_ uint32_t *count, _Out_ uint8_t *infos)'),
    ),
    getGraphicsProcesses: optional(() =>
      lib.func('int nvmlDeviceGetGraphicsRunningProcesses_v3(void *device, _Inout_ uint32_t *count, _Out_ uint8_t *infos)'),
    ),
  }
}

function cString(buf: Buffer): string | null {
  const end = buf.indexOf(0)
  const text = buf.toString('utf8', 0, end === -1 ? buf.length : end).trim()
  return text === '' ? null : text
}

/** NVML in-process: a few µs of FFI per figure instead of a process per sample. */
export class Nvml {
  private handles: bigint[] | null = null
  private readonly nameBuf = Buffer.alloc(96)
  private readonly u32: Out<number> = [null]
  private readonly u64: Out<bigint | number> = [null]
  /** Devices whose energy counter answered NOT_SUPPORTED (or any error) at its first call: never asked again. */
  private readonly noEnergy = new Set<number>()

  constructor(
    private readonly fns: NvmlBindings,
    readonly libraryPath: string,
  ) {}

  describeError(code: number): string {
    let text: string | null = null
    try {
      text = this.fns.errorString?.(code) ?? null
    } catch {
      text = null
    }
    return `NVML error ${code}${text ? ` (${text})` : ''}`
  }

  /**
   * Reads every GPU. A call that fails leaves its figure null; a device whose handle fails is skipped. The energy
   * counter only when asked (options.energy, default true).
   */
  sample(options: { readonly energy?: boolean } = {}): GpuDevice[] {
    const handles = this.deviceHandles()
    return handles.map((h, index) => this.readDevice(h, index, options.energy ?? true))
  }

  inventory(): NvmlInventory {
    const f = this.fns
    const buf = Buffer.alloc(96)
    const driverVersion = this.ok(() => f.getDriverVersion?.(buf, buf.length)) ? cString(buf) : null
    const cuda = this.readU32(f.getCudaVersion ? () => f.getCudaVersion!(this.u32) : null)
    return { driverVersion, cudaVersion: cuda === null ? null : `${Math.floor(cuda / 1000)}.${Math.floor((cuda % 1000) / 10)}` }
  }

  /**
   * The processes on every GPU (compute and graphics lists, one entry per process): null where this NVML lacks the
   * _v3 calls. Their memory is null under WDDM (NVML's "not available"). Meant for on-demand reads, not every tick.
   */
  runningProcesses(): NvmlProcess[] | null {
    const calls = [this.fns.getComputeProcesses, this.fns.getGraphicsProcesses].filter((c) => c !== null)
    if (calls.length === 0) return null
    const lists: NvmlProcess[][] = []
    for (const h of this.deviceHandles()) for (const call of calls) lists.push(this.processList(h, call))
    return mergeNvmlProcesses(lists)
  }

  /** One list call: the count first (INSUFFICIENT_SIZE with the count), then the entries (a few spare for new ones). */
  private processList(h: bigint, call: Call<[bigint, [number], Buffer | null]>): NvmlProcess[] {
    const count: [number] = [0]
    let code: number
    try {
      code = call(h, count, null)
    } catch {
      return []
    }
    if (code === NVML_SUCCESS || code !== NVML_ERROR_INSUFFICIENT_SIZE || count[0] <= 0) return []
    count[0] += 4
    const buffer = Buffer.alloc(count[0] * NVML_PROCESS_INFO_SIZE)
    return this.ok(() => call(h, count, buffer)) ? decodeNvmlProcessInfos(buffer, count[0]) : []
  }

  close(): void {
    try {
      this.fns.shutdown?.()
    } catch {
      // nothing to do: the process goes on without NVML
    }
    this.handles = null
  }

  private deviceHandles(): bigint[] {
    if (this.handles) return this.handles
    const count = this.readU32(() => this.fns.getCount(this.u32)) ?? 0
    const handles: bigint[] = []
    for (let i = 0; i < count && i < 64; i++) {
      const out: Out<bigint> = [null]
      if (this.ok(() => this.fns.getHandle(i, out)) && typeof out[0] === 'bigint' && out[0] !== 0n) handles.push(out[0])
    }
    this.handles = handles
    return handles
  }

  private ok(call: () => number | undefined): boolean {
    try {
      return call() === NVML_SUCCESS
    } catch {
      return false
    }
  }

  private readU32(call: (() => number) | null): number | null {
    if (!call) return null
    this.u32[0] = null
    return this.ok(call) && typeof this.u32[0] === 'number' ? this.u32[0] : null
  }

  /** The total-energy counter (mJ since the driver loaded; Volta and newer), probed once per device. */
  private readEnergy(h: bigint, index: number): number | null {
    const f = this.fns
    if (!f.getTotalEnergy || this.noEnergy.has(index)) return null
    this.u64[0] = null
    if (!this.ok(() => f.getTotalEnergy!(h, this.u64))) {
      this.noEnergy.add(index)
      return null
    }
    const v = this.u64[0]
    return typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : null
  }

  private readDevice(h: bigint, index: number, energy: boolean): GpuDevice {
    const f = this.fns
    const name = f.getName && this.ok(() => f.getName!(h, this.nameBuf, this.nameBuf.length)) ? cString(this.nameBuf) : null
    let memory: { total: number | null; used: number | null; free: number | null; reserved: number | null } = {
      total: null,
      used: null,
      free: null,
      reserved: null,
    }
    const m2: { version: number; total?: bigint; reserved?: bigint; free?: bigint; used?: bigint } = { version: MEMORY_V2_VERSION }
    const toMiB = (v: bigint | undefined): number | null =>
      typeof v === 'bigint' ? Math.round(Number(v) / MIB) : typeof v === 'number' ? Math.round(v / MIB) : null
    if (f.getMemoryV2 && this.ok(() => f.getMemoryV2!(h, m2))) {
      memory = { total: toMiB(m2.total), used: toMiB(m2.used), free: toMiB(m2.free), reserved: toMiB(m2.reserved) }
    } else {
      const m1: { total?: bigint; free?: bigint; used?: bigint } = {}
      // v1 `used` includes the reserved part; reserved is unknown.
      if (f.getMemoryV1 && this.ok(() => f.getMemoryV1!(h, m1)))
        memory = { total: toMiB(m1.total), used: toMiB(m1.used), free: toMiB(m1.free), reserved: null }
    }
    const util: { gpu?: number } = {}
    const utilizationPct =
      f.getUtilization && this.ok(() => f.getUtilization!(h, util)) && typeof util.gpu === 'number' && util.gpu <= 100 ? util.gpu : null
    const powerMw = this.readU32(f.getPower ? () => f.getPower!(h, this.u32) : null)
    const limitMw = this.readU32(f.getPowerLimit ? () => f.getPowerLimit!(h, this.u32) : null)
    const pstate = this.readU32(f.getPstate ? () => f.getPstate!(h, this.u32) : null)
    this.u64[0] = null
    // koffi gives a uint64 as a number when it fits, as a BigInt otherwise.
    const mask = f.getThrottleReasons && this.ok(() => f.getThrottleReasons!(h, this.u64)) ? this.u64[0] : null
    const reasons =
      typeof mask === 'bigint'
        ? decodeThrottleMask(mask)
        : typeof mask === 'number' && Number.isInteger(mask) && mask >= 0
          ? decodeThrottleMask(BigInt(mask))
          : null
    return {
      index,
      name,
      // Not asked: not read, and absent (null says the GPU has no counter).
      ...(energy ? { energyMJ: this.readEnergy(h, index) } : {}),
      memoryTotalMiB: memory.total,
      memoryUsedMiB: memory.used,
      memoryFreeMiB: memory.free,
      memoryReservedMiB: memory.reserved,
      temperatureC: this.readU32(f.getTemperature ? () => f.getTemperature!(h, NVML_TEMPERATURE_GPU, this.u32) : null),
      utilizationPct,
      powerW: powerMw === null ? null : powerMw / 1000,
      powerLimitW: limitMw === null ? null : limitMw / 1000,
      smClockMHz: this.readU32(f.getClock ? () => f.getClock!(h, NVML_CLOCK_SM, this.u32) : null),
      pstate: pstate === null || pstate < 0 || pstate > 15 || pstate === NVML_PSTATE_UNKNOWN ? null : `P${pstate}`,
      throttleReasons: reasons,
    }
  }
}

/**
 * Loads NVML from the first candidate that opens and initialises it. Survives a
 * missing koffi, a missing library, a missing symbol and an init error code:
 * each comes back as a reason, never as an exception.
 */
export function openNvml(candidates: readonly string[] = nvmlLibraryCandidates()): NvmlOpenResult {
  const koffi = loadKoffi()
  if (typeof koffi === 'string') return { ok: false, reason: koffi }
  if (candidates.length === 0) return { ok: false, reason: `NVML is not available on ${process.platform}` }
  const reasons: string[] = []
  for (const file of candidates) {
    let fns: NvmlBindings
    try {
      fns = bind(koffi, koffi.load(file))
    } catch (err) {
      reasons.push(`${file}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`)
      continue
    }
    const nvml = new Nvml(fns, file)
    let code: number
    try {
      code = fns.init()
    } catch (err) {
      reasons.push(`${file}: nvmlInit_v2 failed: ${err instanceof Error ? err.message : String(err)}`)
      continue
    }
    if (code !== NVML_SUCCESS) {
      reasons.push(`${file}: nvmlInit_v2 returned ${nvml.describeError(code)}`)
      continue
    }
    return { ok: true, nvml }
  }
  return { ok: false, reason: `NVML unavailable: ${reasons.join('; ')}` }
}
