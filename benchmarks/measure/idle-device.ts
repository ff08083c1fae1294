// The idle cost of `llama-tray serve` and `llama-tray run` (text) on a machine with a real GPU, bundled into one
// file (benchmarks/gpu-calibration/stage-idle.sh) and run by idle-on-gpu.sh. Every CLI bundle named on the command
// line supervises the same llama-server command in each mode, all at once (the host has cores to spare); each is
// read twice over the same window, opened --settle s after ready and after V8's heap shrink (gc-trace.ts): by the
// bench's own reader (treeCpu) and from outside (outside-cpu.sh, a shell reading every thread's schedstat). Prints
// one table row per CLI and mode; with --prof also writes a V8 CPU profile of each under $OUT.
//   node idle-device.mjs --bin S --model M [--args "..."] [--seconds 60] [--settle 25] label=cli.mjs ...
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { fileURLToPath } from 'node:url'
import { mainThreadRuns, treeCpu, treeTotal, type TreeCpu } from '../idle.bench'
import { GcTrace } from './gc-trace'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    bin: { type: 'string' },
    model: { type: 'string' },
    args: { type: 'string', default: '-c 4096 -np 1' },
    seconds: { type: 'string', default: '60' },
    settle: { type: 'string', default: '25' },
    modes: { type: 'string', default: 'serve,run' },
    prof: { type: 'boolean', default: false },
  },
})
const here = dirname(fileURLToPath(import.meta.url))
const out = process.env.OUT ?? 'idle-out'
mkdirSync(out, { recursive: true })
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

function descendants(root: number): number[] {
  const ppid = new Map<number, number>()
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue
    try {
      const s = readFileSync(`/proc/${e}/stat`, 'utf8')
      ppid.set(Number(e), Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // gone
    }
  }
  const found: number[] = []
  const walk = (p: number): void => {
    for (const [c, pp] of ppid) {
      if (pp !== p) continue
      found.push(c)
      walk(c)
    }
  }
  walk(root)
  return found
}

/** The llama-server under `root` and its --port, once it shows. */
function serverOf(root: number): { pid: number; port: number } | null {
  for (const pid of descendants(root)) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')
      if (!argv.slice(0, 2).some((a) => a.includes('llama-server'))) continue
      const i = argv.indexOf('--port')
      if (i > 0) return { pid, port: Number(argv[i + 1]) }
    } catch {
      // gone
    }
  }
  return null
}

async function healthy(port: number): Promise<boolean> {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) })).ok
  } catch {
    return false
  }
}

const outside = (pid: number): number =>
  Number(execFileSync('bash', [join(here, 'outside-cpu.sh'), String(pid)], { encoding: 'utf8' }).trim())

interface Row {
  readonly label: string
  readonly mode: string
  readonly bench: TreeCpu
  readonly outsideMsPerS: number
  readonly readyS: number
  /** The main thread's runs on a CPU per second: its wakes. */
  readonly wakesPerS: number
  /** V8's GCs inside the window and their main-thread ms; whether its heap shrink after the load came before. */
  readonly gcs: number
  readonly gcMs: number
  readonly shrinkBefore: boolean
}

async function measure(label: string, cli: string, mode: string, prof: boolean): Promise<Row> {
  const home = mkdtempSync(join(tmpdir(), `idle-${label}-${mode}-`))
  // A label starting with `trace` is tick-trace.ts's CLI: told where its counts go, and when its window opens.
  const traced = label.startsWith('trace')
  const env = { ...process.env, LLAMA_TRAY_HOME: home, ...(traced ? { TICK_TRACE_OUT: out, TICK_TRACE_LABEL: label } : {}) }
  const serverArgs = [values.bin as string, '-m', values.model as string, ...(values.args as string).split(' ').filter(Boolean)]
  const node = prof ? ['--cpu-prof', `--cpu-prof-dir=${out}`, `--cpu-prof-name=${label}-${mode}.cpuprofile`] : []
  let args: string[]
  if (mode === 'serve') {
    execFileSync(process.execPath, [cli, 'profiles', 'import', '--name', 'idle', '--', ...serverArgs], { env, stdio: 'ignore' })
    args = [cli, 'serve', 'idle', '--port', String(19000 + Math.floor(Math.random() * 1000))]
  } else args = [cli, 'run', '--cmd', [...serverArgs, '--port', String(18000 + Math.floor(Math.random() * 1000))].join(' ')]
  const log = openSync(join(out, `${label}-${mode}.log`), 'w')
  // stdout through the GC trace (--trace-gc's lines go there) into the log; stderr straight into it.
  const child: ChildProcess = spawn(process.execPath, ['--trace-gc', ...node, ...args], { env, stdio: ['ignore', 'pipe', log] })
  const gc = new GcTrace()
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    gc.feed(line)
    writeSync(log, `${line}\n`)
  })
  const pid = child.pid as number
  const t0 = performance.now()
  try {
    let server: { pid: number; port: number } | null = null
    while (!(server && (await healthy(server.port)))) {
      if (child.exitCode !== null) throw new Error(`${label} ${mode} ended before its server was ready`)
      if (performance.now() - t0 > 300_000) throw new Error(`${label} ${mode}: no ready server in 300 s`)
      await sleep(500)
      server = server ?? serverOf(pid)
    }
    const readyS = (performance.now() - t0) / 1000
    await gc.settle(performance.now(), Number(values.settle) * 1000)
    gc.open()
    if (traced) child.kill('SIGUSR2')
    const b0 = treeCpu(pid)
    const r0 = mainThreadRuns(pid)
    const o0 = outside(pid)
    const w0 = performance.now()
    await sleep(Number(values.seconds) * 1000)
    const b1 = treeCpu(pid)
    const r1 = mainThreadRuns(pid)
    const o1 = outside(pid)
    const s = (performance.now() - w0) / 1000
    const bench = {
      main: (b1.main - b0.main) / s,
      otherThreads: (b1.otherThreads - b0.otherThreads) / s,
      helpers: (b1.helpers - b0.helpers) / s,
    }
    return {
      label,
      mode,
      bench,
      outsideMsPerS: (o1 - o0) / s,
      readyS,
      wakesPerS: (r1 - r0) / s,
      gcs: gc.gcs,
      gcMs: gc.gcMs,
      shrinkBefore: gc.shrinkBefore,
    }
  } finally {
    child.kill('SIGINT')
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)))
  }
}

interface TraceCall {
  readonly name: string
  readonly n: number
  readonly total: number
  readonly self: number
}

/** tick-trace.ts's counts of one CLI: where its window's CPU went, the heaviest calls first. */
function traceTable(name: string): string {
  let trace: { windowS: number; windowCpuUs: number; calls: TraceCall[] }
  try {
    trace = JSON.parse(readFileSync(join(out, `${name}.json`), 'utf8'))
  } catch {
    return `\n${name}: no trace\n`
  }
  const perS = (us: number): string => (us / 1000 / trace.windowS).toFixed(4)
  const counted = trace.calls.reduce((sum, c) => sum + c.self, 0)
  const lines = [
    `\n${name}: ${perS(trace.windowCpuUs)} ms/s over ${trace.windowS.toFixed(0)} s, ${perS(counted)} ms/s in counted calls`,
    `| call | calls/s | self ms/s | total ms/s | self µs per call |`,
    `|---|---|---|---|---|`,
    ...trace.calls
      .slice(0, 30)
      .map(
        (c) => `| ${c.name} | ${(c.n / trace.windowS).toFixed(2)} | ${perS(c.self)} | ${perS(c.total)} | ${(c.self / c.n).toFixed(1)} |`,
      ),
  ]
  return `${lines.join('\n')}\n`
}

async function main(): Promise<void> {
  const clis = positionals.map((p) => {
    const [label, cli] = p.split('=')
    return { label: label as string, cli: cli as string }
  })
  const modes = (values.modes as string).split(',')
  const runs = clis.flatMap(({ label, cli }) =>
    modes.flatMap((mode) => [measure(label, cli, mode, false), ...(values.prof ? [measure(`${label}-prof`, cli, mode, true)] : [])]),
  )
  const rows = await Promise.all(runs.map((r) => r.catch((e: unknown) => (e instanceof Error ? e.message : String(e)))))
  const lines = [
    `| build | mode | outside (schedstat, ms/s) | bench's reader | main | other threads | helpers | bench vs outside | ` +
      `main thread wakes/s | ms per wake | GCs in window (ms) | heap shrink before | ready after |`,
    `|---|---|---|---|---|---|---|---|---|---|---|---|---|`,
  ]
  for (const r of rows) {
    if (typeof r === 'string') {
      lines.push(`| ${r} |`)
      continue
    }
    const total = treeTotal(r.bench)
    const d = ((total - r.outsideMsPerS) / r.outsideMsPerS) * 100
    lines.push(
      `| ${r.label} | ${r.mode} | ${r.outsideMsPerS.toFixed(3)} | ${total.toFixed(3)} | ${r.bench.main.toFixed(3)} | ` +
        `${r.bench.otherThreads.toFixed(3)} | ${r.bench.helpers.toFixed(3)} | ${d >= 0 ? '+' : ''}${d.toFixed(1)} % | ${r.wakesPerS.toFixed(2)} | ` +
        `${r.wakesPerS > 0 ? (r.bench.main / r.wakesPerS).toFixed(2) : '–'} | ${r.gcs} (${r.gcMs.toFixed(1)}) | ` +
        `${r.shrinkBefore ? 'yes' : 'no'} | ${r.readyS.toFixed(1)} s |`,
    )
  }
  const table = `${lines.join('\n')}\n`
  process.stdout.write(table)
  for (const { label } of clis.filter((c) => c.label.startsWith('trace')))
    for (const mode of modes) process.stdout.write(traceTable(`${label}-${mode}`))
}

main().catch((err: unknown) => {
  process.stderr.write(`idle-device failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  process.exitCode = 1
})
