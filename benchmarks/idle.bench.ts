import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import type { BenchRow } from './bench-row'
import { median } from './bench-row'
import { trackChild } from './cleanup'

// Idle cost of `llama-tray run` with a ready server and no requests, measured
// from outside the process: CPU time of the CLI process (its threads' schedstat,
// children not counted) per second of wall time in the steady state, and the size of
// one idle `--json` snapshot line. The baseline is the same CLI built from the
// commit before the idle-cost work (IDLE_BASELINE_REV overrides), measured in
// the same run, rounds alternated.

const CLK_TCK = 100 // USER_HZ on Linux
const SETTLE_MS = 20_000

/**
 * CPU time of every thread of the process (ms): the on-CPU nanoseconds of
 * /proc/<pid>/task/<tid>/schedstat, summed. /proc/<pid>/stat's utime+stime come
 * in 10 ms ticks, 0.33 ms/s over a 30 s window: as coarse as the figure itself.
 * Falls back to them where schedstat is missing (a kernel without it).
 */
function cpuMs(pid: number): number {
  try {
    let ns = 0
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0])
      } catch {
        // a thread that ended between the listing and the read
      }
    }
    if (ns > 0) return ns / 1e6
  } catch {
    // no schedstat: the ticks below
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK // utime, stime (fields 14 and 15)
}

/** The CLI bundle of `rev`, built in a temporary copy of the repository (node_modules linked). */
function buildCliAt(rev: string): { cli: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'llama-tray-idle-baseline-'))
  execFileSync('sh', ['-c', `git archive ${rev} | tar -x -C ${JSON.stringify(dir)}`], { stdio: 'inherit' })
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'))
  execFileSync(process.execPath, [resolve('node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.cli.config.mts', '--logLevel', 'warn'], { cwd: dir, stdio: 'inherit' })
  return { cli: join(dir, 'out', 'cli', 'llama-tray.mjs'), cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

function baselineRev(): string {
  if (process.env.IDLE_BASELINE_REV) return process.env.IDLE_BASELINE_REV
  const added = execFileSync('git', ['log', '--diff-filter=A', '--format=%H', '--', 'benchmarks/idle.bench.ts'], { encoding: 'utf8' }).trim().split('\n').pop()
  return added ? `${added}^` : 'HEAD'
}

interface IdleFigures {
  readonly cpuMsPerS: number
  readonly lineBytes: number
}

/** One `llama-tray run --json` until ready, then `seconds` of idle. */
async function measureIdle(cli: string, bin: string, model: string, seconds: number): Promise<IdleFigures> {
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-idle-home-'))
  const cmd = `${bin} -m ${model} -c 4096 -np 1 -t 1`
  const child = spawn(process.execPath, [cli, 'run', '--cmd', cmd, '--json'], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, LLAMA_TRAY_HOME: home } })
  trackChild(child)
  const lines = createInterface({ input: child.stdout })
  const pid = child.pid as number
  try {
    const sizes: number[] = []
    let readyAt: number | null = null
    let start: { cpu: number; wall: number } | null = null
    for await (const line of lines) {
      const state = (JSON.parse(line) as { server: { state: string } }).server.state
      if (readyAt === null && state === 'ready') readyAt = Date.now()
      if (readyAt === null) continue
      // Measure the steady state: after the first /slots reads, the telemetry start and V8 shrinking the
      // heap once after the load (its memory reducer runs 8–16 s after the allocation rate drops).
      if (start === null && Date.now() - readyAt >= SETTLE_MS) start = { cpu: cpuMs(pid), wall: performance.now() }
      if (start === null) continue
      sizes.push(Buffer.byteLength(line))
      const wall = performance.now() - start.wall
      if (wall >= seconds * 1000) return { cpuMsPerS: (cpuMs(pid) - start.cpu) / (wall / 1000), lineBytes: median(sizes) }
    }
    throw new Error('llama-tray run ended before the measurement did')
  } finally {
    child.kill('SIGINT')
    await new Promise((r) => child.once('exit', r))
    rmSync(home, { recursive: true, force: true })
  }
}

export async function benchIdle(bin: string, model: string, rounds = Number(process.env.IDLE_ROUNDS ?? 2), seconds = Number(process.env.IDLE_SECONDS ?? 30)): Promise<BenchRow[]> {
  const after = resolve('out', 'cli', 'llama-tray.mjs')
  if (!existsSync(after)) execFileSync(process.execPath, [resolve('node_modules/vite/bin/vite.js'), 'build', '--config', 'vite.cli.config.mts', '--logLevel', 'warn'], { stdio: 'inherit' })
  const rev = baselineRev()
  const before = buildCliAt(rev)
  try {
    const now: IdleFigures[] = []
    const then: IdleFigures[] = []
    for (let i = 0; i < rounds; i++) {
      then.push(await measureIdle(before.cli, bin, model, seconds))
      now.push(await measureIdle(after, bin, model, seconds))
    }
    const label = `before (${rev})`
    return [
      { group: 'idle', name: `llama-tray run, ready server, no requests: CPU per second (${seconds} s, ${rounds} rounds)`, value: median(now.map((f) => f.cpuMsPerS)), unit: 'ms/s', baseline: median(then.map((f) => f.cpuMsPerS)), baselineName: label },
      { group: 'idle', name: 'one idle --json snapshot line', value: median(now.map((f) => f.lineBytes)), unit: 'bytes', baseline: median(then.map((f) => f.lineBytes)), baselineName: label },
    ]
  } finally {
    before.cleanup()
  }
}
