// The CLI with every method of the classes an idle tick goes through counted, in CPU time (user + system, so a
// driver call's kernel time counts too), call by call: where an idle `serve` or `run` spends its CPU on a real GPU
// host, at a resolution a sampling profiler (1 ms) cannot give. Bundled by stage-idle.sh as trace.mjs and run by
// idle-device.ts like any CLI (label `trace…`): SIGUSR2 opens the window (idle-device sends it when its own opens),
// SIGINT closes it, and the counts go to $TICK_TRACE_OUT/<label>-<mode>.json at exit. Each counted call costs a
// getrusage (about 1 µs): the figures are for attribution; the plain CLI beside it gives the true total.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { LlamaTrayCore } from '../../app/core/llama-tray-core'
import { PendingFixes } from '../../app/core/pending-fixes'
import { PinnedServers } from '../../app/core/pinned-servers'
import { TelemetryService } from '../../app/telemetry/telemetry-service'
import { CpuMonitor } from '../../app/telemetry/cpu/cpu-monitor'
import { SystemCpuMeter } from '../../app/telemetry/cpu/system-cpu'
import { CpuShareTracker } from '../../app/telemetry/cpu/cpu-share'
import { LinuxProcessSource } from '../../app/telemetry/cpu/linux-processes'
import { Nvml } from '../../app/telemetry/gpu/nvml'
import { AsleepGate } from '../../app/telemetry/gpu/asleep-gate'
import { EnergyMeter } from '../../app/telemetry/gpu/energy-meter'
import { LinuxPciPower } from '../../app/platform/linux/pci-power'
import { LinuxPowerSupply } from '../../app/platform/linux/power-supply'
import { PolledPower } from '../../app/platform/polled-power'
import { Sysfs } from '../../app/platform/sysfs'
import { ServerSupervisor } from '../../app/supervisor/supervisor'
import { SlotsPoller } from '../../app/metrics/slots-poller'
import { GenerationTracker } from '../../app/metrics/generation-tracker'
import { SlotRates } from '../../app/metrics/slot-rates'
import { IdleBeat } from '../../app/lib/idle-beat'
import { AwakeClock } from '../../app/lib/awake-clock'
import { ClockJump } from '../../app/lib/clock-jump'
import { Listeners } from '../../app/lib/listeners'
import { LiveAdvisor } from '../../app/advisor/live-advisor'
import { Hysteresis } from '../../app/advisor/hysteresis'
import { HistoryStore } from '../../app/history/history-store'

interface Count {
  n: number
  /** CPU µs inside the call, its callees included. */
  total: number
  /** The same less the counted callees. */
  self: number
}

const counts = new Map<string, Count>()
let recording = false
let windowStart: NodeJS.CpuUsage | null = null
let windowStartWall = 0
let windowCpuUs = 0
let windowS = 0
/** The counted calls open now, innermost last: each keeps its callees' CPU to take from its own. */
const stack: { children: number }[] = []

const cpuNow = (): number => {
  const u = process.cpuUsage()
  return u.user + u.system
}

function counted<F extends (...args: never[]) => unknown>(name: string, fn: F): F {
  return function (this: unknown, ...args: never[]) {
    if (!recording) return fn.apply(this, args)
    const frame = { children: 0 }
    stack.push(frame)
    const t0 = cpuNow()
    try {
      return fn.apply(this, args)
    } finally {
      const spent = cpuNow() - t0
      stack.pop()
      const parent = stack[stack.length - 1]
      if (parent) parent.children += spent
      const c = counts.get(name) ?? { n: 0, total: 0, self: 0 }
      c.n++
      c.total += spent
      c.self += spent - frame.children
      counts.set(name, c)
    }
  } as F
}

function countMethods(name: string, cls: { prototype: object }): void {
  const proto = cls.prototype as Record<string, unknown>
  for (const key of Object.getOwnPropertyNames(proto)) {
    if (key === 'constructor') continue
    const d = Object.getOwnPropertyDescriptor(proto, key)
    if (!d || typeof d.value !== 'function') continue
    proto[key] = counted(`${name}.${key}`, d.value as (...args: never[]) => unknown)
  }
}

const classes: Record<string, { prototype: object }> = {
  LlamaTrayCore,
  PendingFixes,
  PinnedServers,
  TelemetryService,
  CpuMonitor,
  SystemCpuMeter,
  CpuShareTracker,
  LinuxProcessSource,
  Nvml,
  AsleepGate,
  EnergyMeter,
  LinuxPciPower,
  LinuxPowerSupply,
  PolledPower,
  Sysfs,
  ServerSupervisor,
  SlotsPoller,
  GenerationTracker,
  SlotRates,
  IdleBeat,
  AwakeClock,
  ClockJump,
  Listeners,
  LiveAdvisor,
  Hysteresis,
  HistoryStore,
}
for (const [name, cls] of Object.entries(classes)) countMethods(name, cls)

// Each NVML function on its own: the bindings object is wrapped at the first sample.
const wrappedBindings = new WeakSet<object>()
const sample = Nvml.prototype.sample
Nvml.prototype.sample = function (this: Nvml, ...args: Parameters<Nvml['sample']>) {
  const fns = (this as unknown as { fns: Record<string, unknown> }).fns
  if (!wrappedBindings.has(fns)) {
    wrappedBindings.add(fns)
    for (const [key, fn] of Object.entries(fns))
      if (typeof fn === 'function') fns[key] = counted(`nvml.${key}`, fn as (...a: never[]) => unknown)
  }
  return sample.apply(this, args)
}

process.on('SIGUSR2', () => {
  counts.clear()
  recording = true
  windowStart = process.cpuUsage()
  windowStartWall = performance.now()
})
const close = (): void => {
  if (!recording || windowStart === null) return
  recording = false
  const u = process.cpuUsage(windowStart)
  windowCpuUs = u.user + u.system
  windowS = (performance.now() - windowStartWall) / 1000
}
process.prependListener('SIGINT', close)
process.prependListener('SIGTERM', close)
process.on('exit', () => {
  const dir = process.env.TICK_TRACE_OUT
  if (!dir) return
  const calls = [...counts.entries()].sort((a, b) => b[1].self - a[1].self).map(([name, c]) => ({ name, ...c }))
  const file = join(dir, `${process.env.TICK_TRACE_LABEL ?? 'trace'}-${process.argv[2] ?? 'cli'}.json`)
  writeFileSync(file, `${JSON.stringify({ windowS, windowCpuUs, calls }, null, 1)}\n`)
})

await import('../../app/cli/main')
