import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { createServer, type AddressInfo } from 'node:net'
import { createInterface } from 'node:readline'
import type { BenchRow } from './bench-row'
import { median } from './bench-row'
import { FAKE_SMI_DIR } from '../test/helpers/paths'
import { trackChild } from './cleanup'
import { GcTrace } from './measure/gc-trace'

// Idle cost of `llama-tray serve <profile>` and of `llama-tray run` with a ready server and no requests, measured
// from outside the process as a task manager shows it: the CPU time of every
// thread of the CLI and of its helper processes (nvidia-smi, live or already
// reaped), not llama-server's, per second of wall time in the steady state; and
// the size of one idle `--json` snapshot line. Measured without a GPU reader and
// with the fake nvidia-smi on PATH (one long-lived -lms stream, as on a laptop
// without NVML). The baseline is the same CLI built from the commit before the
// idle-cost work (IDLE_BASELINE_REV overrides), measured in the same run, rounds alternated.
// Each total is followed by where it goes: the CLI's main thread, its other threads and the
// helper processes. The fake nvidia-smi is a Node script: its own cost (the helper row) is not
// the real nvidia-smi's, which holds NVML open and wakes once per -lms period.
//
// The first version counted the CLI's own threads only: 0.81 ms/s here, while an
// outside reading of the whole tree with nvidia-smi answering gave 3.4 ms/s.
// `serve` is what stays up for hours; `run` keeps its fixed --interval (it prints every snapshot).
// IDLE_TARGETS=serve (or run) measures one of them only.

const CLK_TCK = 100 // USER_HZ on Linux
const SETTLE_MS = 25_000

interface ProcInfo {
  readonly ppid: number
  readonly comm: string
  /** utime+stime of its children already waited for (ms, 10 ms ticks). */
  readonly reapedChildrenMs: number
}

function procInfo(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    // fields[1] is ppid (field 4); cutime, cstime are fields 16 and 17
    return { ppid: Number(fields[1]), comm, reapedChildrenMs: ((Number(fields[13]) + Number(fields[14])) * 1000) / CLK_TCK }
  } catch {
    return null
  }
}

/** On-CPU time of every thread of one process but `skipTid` (ms), from schedstat's nanoseconds (finer than 10 ms ticks). */
function threadsMs(pid: number, skipTid?: number): number {
  let ns = 0
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      if (Number(tid) === skipTid) continue
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
      } catch {
        // a thread that ended between the listing and the read
      }
    }
  } catch {
    return 0
  }
  return ns / 1e6
}

/** Where the CPU time of the measured tree goes (ms, or ms/s once divided by the window). */
export interface TreeCpu {
  /** The CLI's main thread: the event loop, our JavaScript. */
  readonly main: number
  /** The CLI's other threads: V8's compiler and GC helpers, libuv's pool. */
  readonly otherThreads: number
  /** Processes the CLI started, llama-server excepted: nvidia-smi (live, or exited and waited for). */
  readonly helpers: number
}

export const treeTotal = (t: TreeCpu): number => t.main + t.otherThreads + t.helpers

/**
 * CPU time (ms) of `root` and its descendants except llama-server and what it starts: live
 * processes by their threads, exited ones through their parents' reaped-children time.
 */
export function treeCpu(root: number): TreeCpu {
  const all = new Map<number, ProcInfo>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    const info = procInfo(Number(entry))
    if (info) all.set(Number(entry), info)
  }
  const main = threadMs(root, root)
  let otherThreads = 0
  let helpers = 0
  const walk = (pid: number): void => {
    const info = all.get(pid)
    if (!info || info.comm.startsWith('llama-server')) return
    if (pid === root) otherThreads += threadsMs(pid, root)
    else helpers += threadsMs(pid)
    helpers += info.reapedChildrenMs
    for (const [child, c] of all) if (c.ppid === pid) walk(child)
  }
  walk(root)
  return { main, otherThreads, helpers }
}

/**
 * How many times the CLI's main thread has been put on a CPU (schedstat's third field): each wake of the event loop
 * (a timer, a socket, a pipe) is one. Its rate tells a slow tick from too many ticks.
 */
export function mainThreadRuns(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ')[2])
  } catch {
    return 0
  }
}

/** One thread's on-CPU time (ms). */
function threadMs(pid: number, tid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6
  } catch {
    return 0
  }
}

/** (end − start) per second of `wallMs`. */
function perSecond(start: TreeCpu, end: TreeCpu, wallMs: number): TreeCpu {
  const s = wallMs / 1000
  return {
    main: (end.main - start.main) / s,
    otherThreads: (end.otherThreads - start.otherThreads) / s,
    helpers: (end.helpers - start.helpers) / s,
  }
}

/** PATH without any nvidia-smi, or with the fake one first. */
function pathFor(gpu: GpuReader): string {
  const plain = (process.env.PATH ?? '').split(delimiter).filter((dir) => !existsSync(join(dir, 'nvidia-smi')))
  return (gpu === 'nvidia-smi' ? [FAKE_SMI_DIR, ...plain] : plain).join(delimiter)
}

/**
 * The fake NVML library (app/telemetry/gpu/nvml-fake), built once under the soname the CLI opens, found through
 * LD_LIBRARY_PATH: the in-process GPU reader of a machine with the NVIDIA driver (the H200 host, Windows laptops).
 */
let fakeNvmlDir: string | null = null
function fakeNvmlLibraryDir(): string {
  if (fakeNvmlDir) return fakeNvmlDir
  const dir = mkdtempSync(join(tmpdir(), 'llama-tray-idle-nvml-'))
  const source = resolve('app', 'telemetry', 'gpu', 'nvml-fake', 'fake-libnvidia-ml.c')
  execFileSync('gcc', ['-shared', '-fPIC', '-O2', '-o', join(dir, 'libnvidia-ml.so.1'), source], { stdio: 'inherit' })
  fakeNvmlDir = dir
  return dir
}

/** The environment of the CLI under test for one GPU reader. */
function envFor(gpu: GpuReader, home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LLAMA_TRAY_HOME: home, PATH: pathFor(gpu) }
  if (gpu === 'nvml') env.LD_LIBRARY_PATH = [fakeNvmlLibraryDir(), process.env.LD_LIBRARY_PATH].filter(Boolean).join(delimiter)
  return env
}

/**
 * The same window read from outside by a shell (benchmarks/measure/outside-cpu.sh: every thread's schedstat), as a
 * check of treeCpu: the first version of this bench counted the CLI's own threads only and gave a quarter of it.
 */
function outsideMs(pid: number): number {
  return Number(execFileSync('bash', [resolve('benchmarks', 'measure', 'outside-cpu.sh'), String(pid)], { encoding: 'utf8' }).trim())
}

/** The CLI bundle of `rev`, built in a temporary copy of the repository (node_modules linked). */
function buildCliAt(rev: string): { cli: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'llama-tray-idle-baseline-'))
  execFileSync('sh', ['-c', `git archive ${rev} | tar -x -C ${JSON.stringify(dir)}`], { stdio: 'inherit' })
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'))
  execFileSync(
    process.execPath,
    [resolve('node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.cli.config.mts', '--logLevel', 'warn'],
    { cwd: dir, stdio: 'inherit' },
  )
  return { cli: join(dir, 'out', 'cli', 'llama-tray.mjs'), cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

function baselineRev(): string {
  if (process.env.IDLE_BASELINE_REV) return process.env.IDLE_BASELINE_REV
  const added = execFileSync('git', ['log', '--diff-filter=A', '--format=%H', '--', 'benchmarks/idle.bench.ts'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()
  return added ? `${added}^` : 'HEAD'
}

interface IdleFigures {
  readonly cpu: TreeCpu
  readonly lineBytes: number
  /** The outside reading of the same window (ms/s). */
  readonly outside: number
}

/** No GPU reader (no nvidia-smi, no NVML on this machine), the fake nvidia-smi first on PATH, or the fake NVML library. */
type GpuReader = 'none' | 'nvidia-smi' | 'nvml'

/** One `llama-tray run` (`--json`: watched, 1 Hz; text into a pipe: unwatched) until ready, then `seconds` of idle. */
async function measureIdle(cli: string, bin: string, model: string, seconds: number, gpu: GpuReader, json = true): Promise<IdleFigures> {
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-idle-home-'))
  const cmd = `${bin} -m ${model} -c 4096 -np 1 -t 1`
  const child = spawn(process.execPath, [...(json ? [] : ['--trace-gc']), cli, 'run', '--cmd', cmd, ...(json ? ['--json'] : [])], {
    stdio: ['ignore', 'pipe', json ? 'ignore' : 'pipe'],
    env: envFor(gpu, home),
  })
  trackChild(child)
  const pid = child.pid as number
  try {
    if (!json) return await measureTextIdle(child, pid, seconds)
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
    const sizes: number[] = []
    let readyAt: number | null = null
    let start: { cpu: TreeCpu; outside: number; wall: number } | null = null
    for await (const line of lines) {
      const state = (JSON.parse(line) as { server: { state: string } }).server.state
      if (readyAt === null && state === 'ready') readyAt = Date.now()
      if (readyAt === null) continue
      // Measure the steady state: after the first /slots reads, the telemetry start and V8 shrinking the
      // heap once after the load (its memory reducer runs 8–16 s after the allocation rate drops).
      if (start === null && Date.now() - readyAt >= SETTLE_MS)
        start = { cpu: treeCpu(pid), outside: outsideMs(pid), wall: performance.now() }
      if (start === null) continue
      sizes.push(Buffer.byteLength(line))
      const wall = performance.now() - start.wall
      if (wall >= seconds * 1000)
        return {
          cpu: perSecond(start.cpu, treeCpu(pid), wall),
          outside: (outsideMs(pid) - start.outside) / (wall / 1000),
          lineBytes: median(sizes),
        }
    }
    throw new Error('llama-tray run ended before the measurement did')
  } finally {
    child.kill('SIGINT')
    await new Promise((r) => child.once('exit', r))
    rmSync(home, { recursive: true, force: true })
  }
}

/** `run` into a pipe prints a line per state change: ready is its "API is at" note on stderr. */
async function measureTextIdle(child: ChildProcess, pid: number, seconds: number): Promise<IdleFigures> {
  // stdout: the lines of state changes (dropped) and --trace-gc's
  const gc = new GcTrace()
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => gc.feed(line))
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (l) => l.includes('API is at') && resolve())
    child.once('exit', () => reject(new Error('llama-tray run ended before its server was ready')))
  })
  await gc.settle(performance.now(), SETTLE_MS)
  gc.open()
  const start = { cpu: treeCpu(pid), outside: outsideMs(pid), wall: performance.now() }
  await new Promise((r) => setTimeout(r, seconds * 1000))
  const wall = performance.now() - start.wall
  return { cpu: perSecond(start.cpu, treeCpu(pid), wall), outside: (outsideMs(pid) - start.outside) / (wall / 1000), lineBytes: 0 }
}

/** A free loopback port for serve's endpoint. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export interface ServeIdle {
  readonly cpu: TreeCpu
  /** The outside reading of the same window (ms/s). */
  readonly outside: number
  /** Whether V8's heap shrink after the load came before the window (false: it never came, or came inside). */
  readonly shrinkBefore: boolean
}

/** One `llama-tray serve <profile> --json` until its server is ready, `SETTLE_MS` and V8's heap shrink, then `seconds` of idle. */
async function measureServeIdle(cli: string, bin: string, model: string, seconds: number, gpu: GpuReader): Promise<ServeIdle> {
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-idle-home-'))
  const env = envFor(gpu, home)
  execFileSync(
    process.execPath,
    [cli, 'profiles', 'import', '--name', 'idle', '--', bin, '-m', model, '-c', '4096', '-np', '1', '-t', '1'],
    {
      env,
      stdio: 'ignore',
    },
  )
  const port = await freePort()
  const child = spawn(process.execPath, ['--trace-gc', cli, 'serve', 'idle', '--port', String(port), '--json'], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env,
  })
  trackChild(child)
  const pid = child.pid as number
  const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
  let ready = false
  const gc = new GcTrace()
  const readyOrEnd = new Promise<void>((resolve) => {
    // --trace-gc writes its lines to stdout too: only lines that start with { are serve's events.
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('{')) {
        const event = JSON.parse(line) as { event: string; status?: { state: string } }
        if (event.event === 'state' && event.status?.state === 'ready') ready = true
        if (ready) resolve()
      } else gc.feed(line)
    })
    child.once('exit', () => resolve())
  })
  try {
    await readyOrEnd
    if (!ready) throw new Error('llama-tray serve ended before its server was ready')
    await gc.settle(performance.now(), SETTLE_MS)
    gc.open()
    const start = { cpu: treeCpu(pid), outside: outsideMs(pid), wall: performance.now() }
    await sleep(seconds * 1000)
    const wall = performance.now() - start.wall
    const cpu = perSecond(start.cpu, treeCpu(pid), wall)
    const outside = (outsideMs(pid) - start.outside) / (wall / 1000)
    return { cpu, outside, shrinkBefore: gc.shrinkBefore }
  } finally {
    child.kill('SIGINT')
    await new Promise((r) => child.once('exit', r))
    rmSync(home, { recursive: true, force: true })
  }
}

/** One window: the bench's own reading and the outside one. */
interface Window {
  readonly cpu: TreeCpu
  readonly outside: number
}

/** The total (medians of the runs) and, below it, where it goes, the CLI alone, and the outside reading. */
function treeRows(name: string, then: readonly Window[], now: readonly Window[], baselineName: string, gpu: GpuReader): BenchRow[] {
  const row = (label: string, pick: (w: Window) => number): BenchRow => ({
    group: 'idle',
    name: label,
    value: median(now.map(pick)),
    unit: 'ms/s',
    baseline: median(then.map(pick)),
    baselineName,
  })
  const agreement = (ws: readonly Window[]): string =>
    ws.map((w) => `${(((treeTotal(w.cpu) - w.outside) / w.outside) * 100).toFixed(1)} %`).join(', ')
  return [
    row(name, (w) => treeTotal(w.cpu)),
    row('  of which the main thread (our JavaScript, timers, sockets)', (w) => w.cpu.main),
    row("  of which the CLI's other threads (V8's compiler and GC helpers, libuv)", (w) => w.cpu.otherThreads),
    row('  of which helper processes (nvidia-smi), live or exited', (w) => w.cpu.helpers),
    ...(gpu === 'nvidia-smi'
      ? [row("  the CLI process alone (the stand-in nvidia-smi's own cost subtracted)", (w) => w.cpu.main + w.cpu.otherThreads)]
      : []),
    row(
      `  read from outside, the same windows (outside-cpu.sh: schedstat of every thread; the bench's reader differs by ` +
        `${agreement(now)} now, ${agreement(then)} before)`,
      (w) => w.outside,
    ),
  ]
}

const READER_WORDS: Record<GpuReader, string> = {
  none: 'no GPU reader',
  'nvidia-smi': 'GPU answering through the stand-in nvidia-smi (a Node script: its own cost is not the real one, and is subtracted below)',
  nvml: 'GPU answering through NVML (the fake library, in process)',
}

export async function benchIdle(
  bin: string,
  model: string,
  rounds = Number(process.env.IDLE_ROUNDS ?? 2),
  // Two minutes: a multiple of the longest idle periods (the idle /slots poll's 60 s, the idle watchdog's 30 s),
  // so every window holds the same number of each, wherever it starts.
  seconds = Number(process.env.IDLE_SECONDS ?? 120),
): Promise<BenchRow[]> {
  const after = resolve('out', 'cli', 'llama-tray.mjs')
  if (!existsSync(after))
    execFileSync(
      process.execPath,
      [resolve('node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.cli.config.mts', '--logLevel', 'warn'],
      { stdio: 'inherit' },
    )
  const rev = baselineRev()
  const before = buildCliAt(rev)
  try {
    const rows: BenchRow[] = []
    const label = `before (${rev})`
    const targets = (process.env.IDLE_TARGETS ?? 'serve,run,run-json').split(',')
    // IDLE_READERS=nvml (or none, nvidia-smi) measures those GPU readers only.
    const readers = (process.env.IDLE_READERS ?? 'none,nvidia-smi,nvml').split(',') as GpuReader[]
    for (const gpu of readers) {
      if (!targets.includes('serve')) break
      const nowRuns: ServeIdle[] = []
      const thenRuns: ServeIdle[] = []
      for (let i = 0; i < rounds; i++) {
        thenRuns.push(await measureServeIdle(before.cli, bin, model, seconds, gpu))
        nowRuns.push(await measureServeIdle(after, bin, model, seconds, gpu))
      }
      const shrunk = [...thenRuns, ...nowRuns].filter((r) => r.shrinkBefore).length
      const runs = (values: readonly ServeIdle[]): string => values.map((v) => treeTotal(v.cpu).toFixed(2)).join(', ')
      rows.push(
        ...treeRows(
          `llama-tray serve, ready server, no requests, ${READER_WORDS[gpu]}: what a task manager shows, the CLI and its helpers ` +
            `(${seconds} s after ${SETTLE_MS / 1000} s and V8's heap shrink, which came before the window in ${shrunk} of ` +
            `${2 * rounds} runs; ${rounds} rounds; runs ${runs(thenRuns)} vs ${runs(nowRuns)})`,
          thenRuns,
          nowRuns,
          label,
          gpu,
        ),
      )
    }
    // `run` into a pipe is unwatched (the idle budget); `run --json` prints a snapshot a second, a watched mode that
    // pays for its cadence.
    for (const json of [false, true]) {
      if (!targets.includes(json ? 'run-json' : 'run')) continue
      for (const gpu of readers) {
        const now: IdleFigures[] = []
        const then: IdleFigures[] = []
        for (let i = 0; i < rounds; i++) {
          then.push(await measureIdle(before.cli, bin, model, seconds, gpu, json))
          now.push(await measureIdle(after, bin, model, seconds, gpu, json))
        }
        const mode = json ? 'run --json (watched: a snapshot a second, pays for its cadence)' : 'run, text into a pipe (unwatched)'
        rows.push(
          ...treeRows(
            `llama-tray ${mode}, ready server, no requests, ${READER_WORDS[gpu]}: CPU per second of the CLI and its helpers ` +
              `(${seconds} s, ${rounds} rounds)`,
            then,
            now,
            label,
            gpu,
          ),
        )
        if (json && gpu === 'none')
          rows.push({
            group: 'idle',
            name: 'one idle --json snapshot line',
            value: median(now.map((f) => f.lineBytes)),
            unit: 'bytes',
            baseline: median(then.map((f) => f.lineBytes)),
            baselineName: label,
          })
      }
    }
    return rows
  } finally {
    before.cleanup()
    if (fakeNvmlDir) rmSync(fakeNvmlDir, { recursive: true, force: true })
  }
}
