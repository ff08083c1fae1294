import { spawn, spawnSync } from 'node:child_process'
import { closeSync, openSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { linuxPath, loadLane, prefixProcesses, runWine, startWindowsCli, wineEnv, type Lane } from '../test/windows/lane'
import { median, type BenchRow } from './bench-row'
import { onCleanup } from './cleanup'

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

async function waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`bench: timed out waiting for ${what}`)
    await sleep(50)
  }
}

/**
 * One supervised stop under Wine, as a user's Ctrl+C in the terminal: the CLI
 * runs llama-server.exe until ready, gets SIGINT (Wine raises it as the
 * console's Ctrl+C), and the time runs until the CLI process has exited.
 */
async function supervisedStop(lane: Lane, home: string, args: readonly string[]): Promise<{ ms: number; left: number }> {
  const cli = startWindowsCli(lane, ['--home', home, 'run', '--cmd', args.join(' '), '--json', '--interval', '200'])
  await waitFor(() => cli.snapshots().some((s) => s.server.state === 'ready') || cli.child.exitCode !== null, 180_000, 'ready')
  const t0 = performance.now()
  cli.child.kill('SIGINT')
  const result = await cli.done
  const ms = performance.now() - t0
  if (result.code !== 0) throw new Error(`bench: the Windows CLI exited with ${result.code}: ${result.stderr}`)
  const left = prefixProcesses(lane, 'llama-server.exe').length + readdirSync(linuxPath(lane, `${home}\\run`)).length
  return { ms, left }
}

/** The bare baseline: llama-server.exe started by Wine, ended by Wine's `taskkill /F /IM`, until its process is gone. */
async function bareTaskkill(lane: Lane, args: readonly string[]): Promise<number> {
  const log = join(tmpdir(), `llama-tray-bench-wine-${process.pid}.log`)
  const fd = openSync(log, 'w')
  const child = spawn('wine', [lane.win.llamaServer, ...args.slice(1).map((a) => a.replace(/^"|"$/g, '')), '--port', '18765'], {
    env: wineEnv(lane),
    stdio: ['ignore', fd, fd],
  })
  closeSync(fd)
  try {
    await waitFor(() => prefixProcesses(lane, 'llama-server.exe').length > 0, 60_000, 'bare llama-server.exe')
    for (let i = 0; i < 600; i++) {
      if (
        (await fetch('http://127.0.0.1:18765/health').then(
          (r) => r.status,
          () => 0,
        )) === 200
      )
        break
      await sleep(100)
    }
    const t0 = performance.now()
    runWine(lane, ['taskkill', '/F', '/IM', 'llama-server.exe'])
    await waitFor(() => prefixProcesses(lane, 'llama-server.exe').length === 0, 30_000, 'bare llama-server.exe to exit')
    return performance.now() - t0
  } finally {
    child.kill('SIGKILL')
    rmSync(log, { force: true })
  }
}

/** 20 supervised stops of llama-server.exe under Wine (goal ≤ 5 s each, nothing left), next to a bare taskkill. */
export async function benchWindowsStop(rounds = 20): Promise<BenchRow[]> {
  // Run as a script (it finds the repository from its own path, which a bundle would change).
  const setUp = spawnSync(process.execPath, ['scripts/windows-lane.mjs'], { stdio: ['ignore', 'inherit', 'inherit'] })
  if (setUp.status !== 0) throw new Error('bench: scripts/windows-lane.mjs failed')
  const found = loadLane()
  if ('unavailable' in found) {
    process.stderr.write(`bench: windows-stop skipped: ${found.unavailable}\n`)
    return []
  }
  const lane = found
  const forget = onCleanup(async () => {
    for (const pid of prefixProcesses(lane, 'llama-server.exe')) process.kill(pid, 'SIGKILL')
  })
  const args = [`"${lane.win.llamaServer}"`, '-m', `"${lane.win.models}\\tiny-target.gguf"`, '-c', '1024', '-np', '1', '-t', '1']
  const home = 'C:\\users\\lane\\bench-home'
  const ours: number[] = []
  const bare: number[] = []
  let left = 0
  try {
    for (let i = 0; i < rounds; i++) {
      const stop = await supervisedStop(lane, home, args)
      ours.push(stop.ms)
      left += stop.left
      if (i % 4 === 0) bare.push(await bareTaskkill(lane, args))
    }
  } finally {
    forget()
  }
  const group = 'windows stop (Wine)'
  return [
    {
      group,
      name: `stop → exited, median of ${rounds}`,
      value: median(ours),
      unit: 'ms',
      baseline: median(bare),
      baselineName: `bare wine taskkill /F, median of ${bare.length}`,
    },
    {
      group,
      name: `stop → exited, worst of ${rounds}`,
      value: Math.max(...ours),
      unit: 'ms',
      baseline: Math.max(...bare),
      baselineName: 'bare wine taskkill /F, worst',
    },
    { group, name: `processes or pid files left after ${rounds} stops`, value: left, unit: '' },
  ]
}
