import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { REPO_ROOT } from '../test/helpers/paths'
import { wineEnv, type Lane } from '../test/windows/lane'
import type { BenchRow } from './bench-row'
import { onCleanup } from './cleanup'

// Where scripts/windows-lane.mjs puts Windows Node in the prefix (its WIN.node; that script is not imported:
// bundled, it would take the bench for itself).
const WINDOWS_NODE = 'C:\\lane\\node\\node.exe'

// A Windows program that only sleeps: the extra processes Toolhelp and the per-process reads must walk.
const SLEEPER_C = '#include <windows.h>\nint main(void) { Sleep(INFINITE); return 0; }\n'

/** One batch of calls of one kind, as benchmarks/windows/scan-probe.ts reports it. */
interface Cost {
  readonly cpuMs: number
  readonly wineserverMs: number
  readonly wallMs: number
  readonly count: number
}
interface ProbeResult {
  readonly problem: string | null
  readonly entries?: Cost
  readonly list?: Cost
  readonly read?: Cost
  readonly pdh: Cost | string
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

/** The Linux processes of a prefix whose command line's first word ends with `image` (wineserver, sleeper.exe). */
function prefixProcesses(prefix: string, image: RegExp): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (!readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`WINEPREFIX=${prefix}`)) continue
      const argv0 = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')[0] ?? ''
      if (image.test(argv0.split(/[\\/]/).pop() ?? '')) found.push(Number(entry))
    } catch {
      // exited meanwhile
    }
  }
  return found
}

/** The probe bundle (out/bench, built with run.mjs) beside koffi and its win32 binary, as a Windows script folder. */
function stageProbe(dir: string, koffiWin32: string): void {
  const bench = join(REPO_ROOT, 'out', 'bench')
  for (const f of readdirSync(bench)) if (f.endsWith('.mjs')) cpSync(join(bench, f), join(dir, f))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }))
  cpSync(join(REPO_ROOT, 'node_modules', 'koffi'), join(dir, 'node_modules', 'koffi'), { recursive: true, dereference: true })
  cpSync(koffiWin32, join(dir, 'node_modules', '@koromix', 'koffi-win32-x64'), { recursive: true })
}

/**
 * The product's Windows process reads (a Toolhelp snapshot; the full scan, which opens every process for
 * its times and working set; the per-tick read of the server) and its PDH sample, per call, under Wine,
 * with 0, 50 and 300 extra sleeping Windows processes (ABA: 50 again after 300). Wine's Toolhelp lists
 * only the prefix's own Windows processes, so the extra ones are Windows sleepers. Under Wine each process
 * call is a request to the wineserver, so its CPU is counted too; on Windows that is kernel time of the
 * caller. Runs in a copy of the lane's prefix, so its sleepers and wineserver touch no other run.
 */
export async function benchWindowsScan(calls = 40): Promise<BenchRow[]> {
  // The lane's folder, without setting anything up or restaging (other runs may be using it).
  const manifest = spawnSync(process.execPath, ['scripts/windows-lane.mjs', '--manifest'], { encoding: 'utf8' }).stdout.trim()
  const lane = { prefix: join(dirname(manifest), 'prefix') }
  if (!manifest || !existsSync(lane.prefix)) {
    process.stderr.write('bench: windows-scan skipped: the Windows lane is not set up (node scripts/windows-lane.mjs --setup-only)\n')
    return []
  }
  const work = mkdtempSync(join(tmpdir(), 'llama-tray-bench-scan-'))
  const prefix = join(work, 'prefix')
  const sleepers: ChildProcess[] = []
  const forget = onCleanup(async () => {
    for (const s of sleepers) s.kill('SIGKILL')
    spawnSync('wineserver', ['-k'], { env: wineEnv({ prefix } as Lane), stdio: 'ignore', timeout: 30_000 })
  })
  try {
    cpSync(lane.prefix, prefix, { recursive: true, verbatimSymlinks: true })
    const env = wineEnv({ prefix } as Lane)
    const probeDir = join(prefix, 'drive_c', 'bench-scan')
    mkdirSync(probeDir, { recursive: true })
    const koffiVersion = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { dependencies: { koffi: string } })
      .dependencies.koffi
    stageProbe(probeDir, join(dirname(lane.prefix), `koffi-win32-x64-${koffiVersion}`))
    const sleeperExe = join(probeDir, 'sleeper.exe')
    writeFileSync(join(work, 'sleeper.c'), SLEEPER_C)
    const cc = spawnSync('x86_64-w64-mingw32-gcc-posix', ['-O1', '-static', '-o', sleeperExe, join(work, 'sleeper.c')], {
      stdio: 'inherit',
    })
    if (cc.status !== 0) throw new Error('bench: could not build sleeper.exe with mingw-w64')

    const runProbe = (): ProbeResult => {
      const server = prefixProcesses(prefix, /^wineserver/)[0]
      const out = join(work, 'probe.out')
      const fd = openSync(out, 'w') // node.exe's stdout is a file: under Wine a pipe gives EBADF
      try {
        const args = [WINDOWS_NODE, 'C:\\bench-scan\\windows-scan-probe.mjs', String(calls)]
        const r = spawnSync('wine', [...args, ...(server ? [String(server)] : [])], {
          env,
          stdio: ['ignore', fd, 'inherit'],
          timeout: 300_000,
        })
        if (r.status !== 0) throw new Error(`bench: the Windows probe exited with ${r.status}`)
      } finally {
        closeSync(fd)
      }
      const line = readFileSync(out, 'utf8').trim().split('\n').pop() ?? ''
      return JSON.parse(line) as ProbeResult
    }
    const startSleepers = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) {
        sleepers.push(spawn('wine', ['C:\\bench-scan\\sleeper.exe'], { env, stdio: 'ignore' }))
        if (i % 10 === 9) await sleep(200) // let Wine start them a few at a time
      }
      const want = sleepers.length
      for (let i = 0; i < 600 && prefixProcesses(prefix, /^sleeper\.exe$/i).length < want; i++) await sleep(500)
    }
    const stopSleepers = async (n: number): Promise<void> => {
      for (const s of sleepers.splice(sleepers.length - n, n)) s.kill('SIGKILL')
      const want = sleepers.length
      for (let i = 0; i < 600 && prefixProcesses(prefix, /^sleeper\.exe$/i).length > want; i++) await sleep(200)
      await sleep(1000) // the wineserver forgets them
    }

    const phases: { extra: number; result: ProbeResult }[] = []
    phases.push({ extra: 0, result: runProbe() })
    await startSleepers(50)
    phases.push({ extra: 50, result: runProbe() })
    await startSleepers(250)
    phases.push({ extra: 300, result: runProbe() })
    await stopSleepers(250)
    phases.push({ extra: 50, result: runProbe() })
    return rowsOf(phases, calls)
  } finally {
    forget()
    for (const s of sleepers) s.kill('SIGKILL')
    spawnSync('wineserver', ['-k'], { env: wineEnv({ prefix } as Lane), stdio: 'ignore', timeout: 30_000 })
    rmSync(work, { recursive: true, force: true })
  }
}

function rowsOf(phases: readonly { extra: number; result: ProbeResult }[], calls: number): BenchRow[] {
  const group = 'windows process scan (Wine)'
  const first = phases[0]?.result
  if (first?.problem) throw new Error(`bench: the Windows process source does not work under Wine: ${first.problem}`)
  const kinds = [
    ['entries', 'Toolhelp snapshot (names, pids)'],
    ['list', 'full scan (snapshot, then times and working set of each)'],
    ['read', "the server's own read (each tick)"],
  ] as const
  const at = (extra: number, kind: (typeof kinds)[number][0]): Cost[] =>
    phases.filter((p) => p.extra === extra).flatMap((p) => (p.result[kind] ? [p.result[kind]] : []))
  // CPU of the probe and of the wineserver per call; the 50-process phases (before and after 300) averaged.
  const cost = (c: readonly Cost[]): number => c.reduce((sum, x) => sum + x.cpuMs + x.wineserverMs, 0) / Math.max(1, c.length)
  const rows: BenchRow[] = []
  for (const [kind, what] of kinds) {
    const base = cost(at(50, kind))
    for (const extra of [0, 50, 300]) {
      const c = at(extra, kind)
      rows.push({
        group,
        name: `${what}, ${extra} extra processes (${c[0]?.count ?? 0} seen), ms CPU per call with the wineserver's`,
        value: cost(c),
        unit: 'ms',
        ...(extra === 50 ? {} : { baseline: base, baselineName: '50 extra (before and after 300)' }),
      })
    }
    rows.push({ group, name: `${what}, 300 extra, wall time of the median call`, value: at(300, kind)[0]?.wallMs ?? 0, unit: 'ms' })
  }
  const pdh = first?.pdh
  if (typeof pdh === 'string') process.stderr.write(`bench: windows-scan: no PDH figure under Wine (${pdh})\n`)
  else if (pdh) rows.push({ group, name: `PDH shared GPU memory sample, ${calls} calls`, value: cost([pdh]), unit: 'ms' })
  return rows
}
