// Run by Windows Node under Wine (benchmarks/windows-scan.bench.ts bundles it next to a koffi with its
// win32 binary): the CPU and wall time of the product's own Windows process reads and PDH sample, per
// call, as JSON on stdout. Argument: calls per kind, then (optional) the Linux pid of the wineserver,
// whose CPU is added (under Wine each process call is a request to it; on Windows that is kernel time).
import { readFileSync } from 'node:fs'
import { PdhSharedGpuMemory } from '../../app/platform/win32/pdh-shared-memory'
import { WindowsProcessSource } from '../../app/platform/win32/toolhelp-processes'

const calls = Number(process.argv[2] ?? 20)
const wineserver = process.argv[3] ? Number(process.argv[3]) : null

/** The wineserver's CPU (ms) through drive Z: (Wine's view of /); 0 when it cannot be read. */
function wineserverCpuMs(): number {
  if (wineserver === null) return 0
  try {
    const fields = readFileSync(`Z:\\proc\\${wineserver}\\stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) * 10 // clock ticks of 10 ms
  } catch {
    return 0
  }
}

interface Cost {
  /** The probe's own CPU per call, ms (averaged over the batch: Wine's process times tick in 10-16 ms). */
  readonly cpuMs: number
  /** The wineserver's CPU per call, ms, over the same batch. */
  readonly wineserverMs: number
  /** Median wall time of one call, ms. */
  readonly wallMs: number
  /** What one call returned (processes seen). */
  readonly count: number
}

/** One batch of `n` calls after a warm-up: CPU averaged over the batch, the median call's wall time. */
function measure(fn: () => number, n = calls): Cost {
  fn() // warm-up
  const walls: number[] = []
  let count = 0
  const server0 = wineserverCpuMs()
  const cpu0 = process.cpuUsage()
  for (let i = 0; i < n; i++) {
    const t0 = performance.now()
    count = fn()
    walls.push(performance.now() - t0)
  }
  const cpu = process.cpuUsage(cpu0)
  walls.sort((a, b) => a - b)
  return {
    cpuMs: (cpu.user + cpu.system) / 1000 / n,
    wineserverMs: (wineserverCpuMs() - server0) / n,
    wallMs: walls[Math.floor(n / 2)] ?? 0,
    count,
  }
}

const source = new WindowsProcessSource()
const result: Record<string, unknown> = { problem: source.problem }
if (!source.problem) {
  result.entries = measure(() => source.entries()?.length ?? 0)
  result.list = measure(() => source.list().length)
  result.read = measure(() => (source.read(process.pid) ? 1 : 0), calls * 20)
}
const pdh = PdhSharedGpuMemory.open()
if (typeof pdh === 'string') result.pdh = pdh
else {
  result.pdh = measure(() => pdh.sample()?.byPid.size ?? -1)
  pdh.close()
}
process.stdout.write(`${JSON.stringify(result)}\n`)
