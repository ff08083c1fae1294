// CPU time of each NVML call our GPU reader makes, on a machine with a real GPU (bundled by stage-idle.sh):
// a driver call per figure per sample, so the idle budget depends on which figures a tick asks for.
//   node nvml-calls.mjs [label]
import { loadKoffi } from '../../app/platform/koffi'
import { nvmlLibraryCandidates } from '../../app/telemetry/gpu/nvml-paths'
import { selfCpuMs } from './cpu-clock'
import { openNvml } from '../../app/telemetry/gpu/nvml'

const koffi = loadKoffi()
if (typeof koffi === 'string') throw new Error(koffi)
const path = nvmlLibraryCandidates().find((p) => {
  try {
    koffi.load(p)
    return true
  } catch {
    return false
  }
})
if (!path) throw new Error('no NVML library')
const lib = koffi.load(path)
const init = lib.func('int nvmlInit_v2()')
if (init() !== 0) throw new Error('nvmlInit_v2 failed')
const handleOut: [bigint | null] = [null]
lib.func('int nvmlDeviceGetHandleByIndex_v2(uint32_t index, _Out_ void **device)')(0, handleOut)
const h = handleOut[0]
const u32: [number | null] = [null]
const u64: [number | bigint | null] = [null]
const buf = Buffer.alloc(96)
const Memory2 = koffi.struct('h41_mem2', {
  version: 'uint32_t',
  total: 'uint64_t',
  reserved: 'uint64_t',
  free: 'uint64_t',
  used: 'uint64_t',
})
const Util = koffi.struct('h41_util', { gpu: 'uint32_t', memory: 'uint32_t' })
const calls: Record<string, () => unknown> = {
  name: (
    (f) => () =>
      f(h, buf, buf.length)
  )(lib.func('int nvmlDeviceGetName(void *device, _Out_ uint8_t *name, uint32_t length)')),
  memoryV2: (
    (f) => () =>
      f(h, { version: (2 << 24) | 40 })
  )(lib.func('nvmlDeviceGetMemoryInfo_v2', 'int', ['void *', koffi.inout(koffi.pointer(Memory2))])),
  temperature: (
    (f) => () =>
      f(h, 0, u32)
  )(lib.func('int nvmlDeviceGetTemperature(void *device, int sensor, _Out_ uint32_t *temp)')),
  utilization: (
    (f) => () =>
      f(h, {})
  )(lib.func('nvmlDeviceGetUtilizationRates', 'int', ['void *', koffi.out(koffi.pointer(Util))])),
  power: (
    (f) => () =>
      f(h, u32)
  )(lib.func('int nvmlDeviceGetPowerUsage(void *device, _Out_ uint32_t *milliwatts)')),
  powerLimit: (
    (f) => () =>
      f(h, u32)
  )(lib.func('int nvmlDeviceGetEnforcedPowerLimit(void *device, _Out_ uint32_t *milliwatts)')),
  smClock: (
    (f) => () =>
      f(h, 1, u32)
  )(lib.func('int nvmlDeviceGetClockInfo(void *device, int type, _Out_ uint32_t *mhz)')),
  pstate: (
    (f) => () =>
      f(h, u32)
  )(lib.func('int nvmlDeviceGetPerformanceState(void *device, _Out_ int *pstate)')),
  throttle: (
    (f) => () =>
      f(h, u64)
  )(lib.func('int nvmlDeviceGetCurrentClocksThrottleReasons(void *device, _Out_ uint64_t *reasons)')),
  energy: (
    (f) => () =>
      f(h, u64)
  )(lib.func('int nvmlDeviceGetTotalEnergyConsumption(void *device, _Out_ uint64_t *millijoules)')),
}
const label = process.argv[2] ?? ''
const n = 200
for (const [name, call] of Object.entries(calls)) {
  for (let i = 0; i < 10; i++) call()
  const c0 = selfCpuMs()
  const t0 = performance.now()
  for (let i = 0; i < n; i++) call()
  process.stdout.write(
    `nvml ${label} ${name}: ${((selfCpuMs() - c0) / n).toFixed(4)} ms CPU, ${((performance.now() - t0) / n).toFixed(4)} ms wall per call\n`,
  )
}

// What one tick of the GPU reader costs: the app's own sample of every GPU (all the calls above, as it makes them).
const opened = openNvml()
if (opened.ok) {
  for (let i = 0; i < 10; i++) opened.nvml.sample()
  const c0 = selfCpuMs()
  const t0 = performance.now()
  for (let i = 0; i < n; i++) opened.nvml.sample()
  process.stdout.write(
    `nvml ${label} whole sample: ${((selfCpuMs() - c0) / n).toFixed(4)} ms CPU, ${((performance.now() - t0) / n).toFixed(4)} ms wall\n`,
  )
  opened.nvml.close()
}
