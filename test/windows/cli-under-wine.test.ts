import { spawn, type ChildProcess } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CpuSnapshot } from '../../app/contract/telemetry'
import { waitUntil } from '../helpers/processes'
import {
  linuxPath,
  loadLane,
  mapDrive,
  prefixProcesses,
  runWine,
  startWindowsCli,
  unmapDrive,
  wineEnv,
  type Lane,
  type WindowsCli,
} from './lane'

// The built CLI under Windows Node (node.exe 20 under Wine 8), supervising a
// real llama-server.exe cross-built with mingw-w64, in a Windows 10 prefix.
//
// Where Wine differs from Windows, the tests check the behaviour Wine gives and
// say so: Wine's taskkill has no /T, so every stop here takes the fallback
// (TerminateProcess plus the Toolhelp tree walk); the taskkill /T /F path
// itself is unit-tested (app/platform/win32/stop-tree.test.ts) and checked by
// hand on Windows (docs/windows-manual-checklist.md).

const found = loadLane()
const lane = 'unavailable' in found ? null : found
const skipReason = 'unavailable' in found ? found.unavailable : ''

/** The lane, inside a test that only runs when there is one. */
function L(): Lane {
  if (!lane) throw new Error(skipReason)
  return lane
}

const READY_MS = 120_000 // Wine + Node start and a model load on a loaded 2-core machine; ~5 s idle
const running: WindowsCli[] = []

function start(args: readonly string[], env: Record<string, string> = {}): WindowsCli {
  const cli = startWindowsCli(L(), args, env)
  running.push(cli)
  return cli
}

function readyPort(cli: WindowsCli): number | null {
  return cli.snapshots().find((s) => s.server.state === 'ready')?.server.port ?? null
}

async function waitReady(cli: WindowsCli, what: string): Promise<{ port: number; pid: number }> {
  await waitUntil(() => readyPort(cli) !== null || cli.child.exitCode !== null, READY_MS, `${what} to be ready`)
  const ready = cli.snapshots().find((s) => s.server.state === 'ready')?.server
  if (!ready?.port || !ready.pid) throw new Error(`${what} exited before ready: ${cli.stderr()}`)
  return { port: ready.port, pid: ready.pid }
}

async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()))
  const { port } = probe.address() as { port: number }
  await new Promise<void>((r) => probe.close(() => r()))
  return port
}

function leftovers(): number[] {
  return prefixProcesses(L(), 'llama-server.exe')
}

afterAll(async () => {
  for (const cli of running) if (cli.child.exitCode === null) cli.child.kill('SIGKILL')
  // A server a failed test left running would load the next lane run's CPU.
  if (lane) for (const pid of leftovers()) process.kill(pid, 'SIGKILL')
})

describe.skipIf(!lane)(`the CLI under Windows Node and Wine${lane ? '' : ` (skipped: ${skipReason})`}`, () => {
  let server = ''
  let models = ''
  beforeAll(() => {
    server = L().win.llamaServer
    models = L().win.models
    expect(leftovers(), 'llama-server.exe processes left by an earlier run').toEqual([])
  })

  it(
    'runs a cmd.exe paste to ready, serves a completion, names Discord.exe, and Ctrl+C stops it: exit 0, no process, no pid file ' +
      '(%APPDATA% home)',
    async () => {
      // The default home, %APPDATA%\llama-tray, when neither --home nor LLAMA_TRAY_HOME is set. Wine sets
      // APPDATA from its user profile (an APPDATA from Linux is not passed through), so ask Windows Node.
      const appData = runWine(L(), [L().win.node, '-p', 'process.env.APPDATA']).output.trim()
      const home = linuxPath(L(), `${appData}\\llama-tray`)
      rmSync(home, { recursive: true, force: true })
      const burner = spawn('wine', [L().win.discord, '300'], { env: wineEnv(L()), stdio: 'ignore' })
      try {
        const paste = `"${server}" ^\r\n  -m "${models}\\tiny-target.gguf" ^\r\n  -c 1024 -np 1 -t 1`
        const cli = start(['run', '--cmd', paste, '--json', '--interval', '250'])
        const { port } = await waitReady(cli, 'the cmd paste')

        const reply = await fetch(`http://127.0.0.1:${port}/completion`, {
          method: 'POST',
          body: JSON.stringify({ prompt: 'Hello', n_predict: 4 }),
        })
        expect(reply.status).toBe(200)
        expect(((await reply.json()) as { tokens_predicted: number }).tokens_predicted).toBeGreaterThan(0)

        // Heavy apps come from the Toolhelp/GetProcessTimes binding (koffi's win32 binary) every 5 s.
        const discord = (): { cpuPct: number | null } | undefined =>
          cli
            .snapshots()
            .flatMap((s) => (s.cpu as CpuSnapshot | null)?.heavyApps ?? [])
            .find((a) => a.name === 'Discord' && a.cpuPct !== null)
        await waitUntil(() => discord() !== undefined || cli.child.exitCode !== null, 60_000, 'Discord.exe to be named with its CPU share')
        expect(discord()?.cpuPct).toBeGreaterThan(0)

        // Wine turns SIGINT into the console's Ctrl+C, which Windows Node raises as SIGINT: the user's Ctrl+C.
        const t0 = Date.now()
        cli.child.kill('SIGINT')
        const result = await cli.done
        expect(result.code, result.stderr).toBe(0)
        expect(Date.now() - t0).toBeLessThan(30_000) // sanity only; the ≤ 5 s goal is measured by npm run bench
        expect(cli.snapshots().at(-1)?.server.state).toBe('stopped')
        expect(leftovers()).toEqual([])
        expect(readdirSync(`${home}/run`)).toEqual([])
        // The stop goes through llama-server's child channel first (the exit command on its stdin): the server
        // shuts down by itself, exit code 0, its log ending with its own shutdown lines; no taskkill, no
        // TerminateProcess (which Wine would need anyway: its taskkill has no /T; the orphan test below takes it).
        const log = readFileSync(`${home}/logs/llama-server.log`, 'utf8')
        expect(log).toMatch(/\[llama-tray\] llama-server reports its own load progress and stops through its stdin/)
        expect(log).toMatch(/exit command received, exiting\.\.\.[\s\S]*cleaning up before exit/)
        expect(log).toMatch(/\[llama-tray\] llama-server stopped through its stdin channel \(exit code 0\)/)
        expect(log).not.toMatch(/TerminateProcess|taskkill/)
      } finally {
        burner.kill('SIGKILL')
      }
    },
    240_000,
  )

  it(
    'runs a PowerShell paste from drive D: (paths with spaces); a killed CLI takes its server along; an orphan is terminated only when ' +
      'its creation time matches',
    async () => {
      const d = mapDrive(L(), 'D')
      const bare: ChildProcess[] = []
      try {
        mkdirSync(`${d}/My Models`)
        copyFileSync(linuxPath(L(), `${models}\\tiny-target.gguf`), `${d}/My Models/tiny-target.gguf`)
        const paste = `& "${server}" \`\n  -m "D:\\My Models\\tiny-target.gguf" \`\n  -c 1024 -np 1 -t 1`
        const home = 'D:\\Llama Tray Home'
        const runDir = `${d}/Llama Tray Home/run`
        const first = start(['--home', home, 'run', '--cmd', paste, '--json', '--interval', '250'])
        await waitReady(first, 'the PowerShell paste')
        expect(pidFilesIn(runDir)).toHaveLength(1)
        // The CLI (node.exe) dies without stopping its server. Windows (and Wine) end the server with it twice over:
        // libuv puts children in a kill-on-close job, and the server's stdin (the child channel) closes, on which
        // it exits by itself. The pid file stays behind.
        first.child.kill('SIGKILL')
        await first.done
        await waitUntil(() => leftovers().length === 0, 30_000, "the job to end the killed CLI's server")
        expect(pidFilesIn(runDir)).toHaveLength(1)

        // A real orphan: a llama-server.exe outside any job (started by Wine itself), and
        // pid files as a killed supervisor leaves them, read by the next start in that home.
        bare.push(
          spawn(
            'wine',
            [server, '-m', `${models}\\tiny-target.gguf`, '-c', '1024', '-np', '1', '-t', '1', '--port', String(await freePort())],
            { env: wineEnv(L()), stdio: 'ignore' },
          ),
        )
        await waitUntil(() => leftovers().length === 1, READY_MS, 'the bare llama-server.exe')
        const probe = runWine(L(), [L().win.node, `${L().win.cliDir}\\process-identity.mjs`, 'llama-server.exe'])
        const orphan = JSON.parse(probe.output) as { pid: number; created: string }
        const pidFile = (owner: number, created: string): void =>
          writeFileSync(
            `${runDir}/llama-server.${owner}.json`,
            JSON.stringify({
              pid: orphan.pid,
              ownerPid: owner,
              exe: server,
              port: null,
              identity: { name: 'llama-server', startToken: `filetime:${created}` },
              startedAt: 0,
            }),
          )

        // Same pid and name, another creation time: the pid now belongs to someone else. Never killed.
        pidFile(999_991, String(BigInt(orphan.created) + 1n))
        const reused = await start(['--home', home, 'run', '--cmd', paste, '--json', '--duration', '2']).done
        expect(reused.code, reused.stderr).toBe(0)
        expect(leftovers(), 'the bystander with the reused pid').toHaveLength(1)
        expect(readdirSync(runDir)).toEqual([]) // the stale files (the killed CLI's and this one) are gone

        pidFile(999_992, orphan.created)
        const reaping = await start(['--home', home, 'run', '--cmd', paste, '--json', '--duration', '2']).done
        expect(reaping.code, reaping.stderr).toBe(0)
        expect(leftovers()).toEqual([])
        expect(readdirSync(runDir)).toEqual([])
        // Wine: taskkill has no /T, so the orphan is ended by the TerminateProcess fallback.
        expect(readFileSync(`${d}/Llama Tray Home/logs/llama-server.log`, 'utf8')).toMatch(
          new RegExp(
            `llama-server pid ${orphan.pid}, left behind by an earlier run \\(owner pid 999992\\): terminated with TerminateProcess`,
          ),
        )
      } finally {
        for (const b of bare) b.kill('SIGKILL')
        unmapDrive(L(), 'D', d)
      }
    },
    400_000,
  )

  it('restarts a llama-server.exe killed from outside, and gives up after 5 quick kills (crash loop, exit 1)', async () => {
    const home = 'C:\\users\\lane\\crashloop-home'
    const log = linuxPath(L(), `${home}\\logs\\llama-server.log`)
    rmSync(log, { force: true }) // the home stays in the cached prefix: only this run's lines
    const cli = start(['run', '--cmd', `"${server}" -m "${models}\\tiny-target.gguf" -c 1024 -np 1 -t 1`, '--json', '--interval', '250'], {
      LLAMA_TRAY_HOME: home,
    })
    let kills = 0
    let killedRestarts = -1
    for (;;) {
      // The next run that is ready (Wine reuses Windows pids, so the restart count tells the runs apart), or the exit.
      await waitUntil(
        () => {
          const last = cli.snapshots().at(-1)?.server
          return (last?.state === 'ready' && last.restarts > killedRestarts) || cli.child.exitCode !== null
        },
        READY_MS,
        `ready after ${kills} kills`,
      )
      if (cli.child.exitCode !== null) break
      const pid = cli.snapshots().at(-1)?.server.pid as number
      killedRestarts = cli.snapshots().at(-1)?.server.restarts as number
      await waitUntil(
        () => leftovers().length > 0 || cli.child.exitCode !== null,
        10_000,
        `the Linux process of llama-server.exe pid ${pid}`,
      )
      // Killed from outside, as Task Manager's End task would. Wine's own taskkill /F /PID proved
      // unreliable here (it sometimes left the process running), so the Linux process that runs
      // llama-server.exe gets SIGKILL; Windows Node sees an exit it did not ask for, as on Windows.
      for (const linuxPid of leftovers()) process.kill(linuxPid, 'SIGKILL')
      kills++
      await waitUntil(
        () => cli.snapshots().at(-1)?.server.state !== 'ready' || cli.child.exitCode !== null,
        60_000,
        `the exit of pid ${pid} to be seen`,
      )
    }
    const result = await cli.done
    expect(result.code, result.stderr).toBe(1)
    expect(result.stderr).toMatch(/Gave up after 5 unstable exits in a row/)
    // Wine on a loaded machine once failed a start with STATUS_DLL_INIT_FAILED: such a start is tried
    // once more (and counts as an unstable exit), so our kills and those starts make the five.
    const retried =
      readFileSync(log, 'utf8').match(/could not start: a DLL failed to initialise \(STATUS_DLL_INIT_FAILED\); restarting in/g) ?? []
    expect(kills + retried.length).toBe(5)
    expect(Math.max(...cli.snapshots().map((s) => s.server.restarts))).toBe(4)
    expect(leftovers()).toEqual([])
  }, 400_000)

  it('reports why shared GPU memory cannot be read (PDH through koffi; Wine has no GPU counters) instead of failing', async () => {
    const cli = start(['gpu', '--json'])
    const result = await cli.done
    expect(result.code).toBe(1) // no NVIDIA GPU here
    const report = JSON.parse(result.stdout.trim().split('\n')[0] as string) as {
      sharedGpuMemory?: { available: boolean; reason?: string }
    }
    // Wine: pdh.dll loads and opens a query, but has no GPU counters. On Windows: the checklist, item 29.
    expect(report.sharedGpuMemory).toEqual({
      available: false,
      reason: expect.stringMatching(
        /^the counter \\GPU Process Memory\(\*\)\\Shared Usage is not available: PDH_CSTATUS_NO_COUNTER \(0xC0000BB9\)/,
      ),
    })
  }, 120_000)

  describe('refuses before spawning, with the reason (exit 2)', () => {
    let blocker: Server
    let busyPort = 0
    beforeAll(async () => {
      // Wine shares the host's network: a Linux listener makes the port busy for Windows Node too.
      blocker = createServer()
      await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()))
      busyPort = (blocker.address() as { port: number }).port
    })
    afterAll(() => new Promise<void>((r) => blocker.close(() => r())))

    it.each([
      [
        'a missing model',
        () => `"${server}" -m "${models}\\no such model.gguf"`,
        // The file's name in the sentence; its path is in the details (--verbose).
        /model file no such model\.gguf does not exist/,
      ],
      [
        'a port in use',
        () => `"${server}" -m "${models}\\tiny-target.gguf" --port ${busyPort}`,
        /Port \d+ on 127\.0\.0\.1 is already in use by /,
      ],
    ])(
      '%s',
      async (_name, cmd, reason) => {
        const cli = start(['run', '--cmd', cmd(), '--json'], { LLAMA_TRAY_HOME: 'C:\\users\\lane\\refusal-home' })
        const result = await cli.done
        expect(result.code).toBe(2)
        expect(result.stderr).toMatch(reason)
        expect(cli.snapshots().at(-1)?.server.state).toBe('errored')
        expect(
          existsSync(linuxPath(L(), 'C:\\users\\lane\\refusal-home\\run'))
            ? readdirSync(linuxPath(L(), 'C:\\users\\lane\\refusal-home\\run'))
            : [],
        ).toEqual([])
      },
      120_000,
    )
  })
})

/** The run folder's pid files: what a live or killed CLI leaves, without the home's lock (instance.json), which names its holder. */
/** The server pid files in the run folder: not the instance record, nor an atomic write of it still in flight (*.tmp). */
function pidFilesIn(runDir: string): string[] {
  return readdirSync(runDir).filter((name) => name !== 'instance.json' && !name.startsWith('instance.json.'))
}
