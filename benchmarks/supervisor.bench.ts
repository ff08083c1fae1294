import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { findFreePort } from '../app/supervisor/free-port'
import { probeHealth } from '../app/supervisor/health'
import { ServerSupervisor } from '../app/supervisor/supervisor'
import { median, type BenchRow } from './bench-row'
import { onCleanup, trackChild } from './cleanup'

interface Cycle {
  readyMs: number
  stopMs: number
}

/** The least anyone can do: spawn, poll /health every 20 ms, SIGTERM, wait for the exit. */
async function rawCycle(bin: string, args: string[]): Promise<Cycle> {
  const port = await findFreePort()
  const t0 = performance.now()
  const child = spawn(bin, [...args, '--host', '127.0.0.1', '--port', String(port)], { stdio: 'ignore' })
  trackChild(child)
  const exited = new Promise((r) => child.once('exit', r))
  for (;;) {
    if ((await probeHealth('127.0.0.1', port, 1000)).kind === 'ready') break
    await new Promise((r) => setTimeout(r, 20))
  }
  const readyMs = performance.now() - t0
  const t1 = performance.now()
  child.kill('SIGTERM')
  // llama-server's SIGTERM handler can deadlock (about 5% of stops when it was measured): bound the wait.
  const graceful = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 5000))])
  if (!graceful) {
    child.kill('SIGKILL')
    await exited
  }
  return { readyMs, stopMs: performance.now() - t1 }
}

async function supervisedCycle(supervisor: ServerSupervisor, bin: string, args: string[]): Promise<Cycle> {
  const t0 = performance.now()
  const status = await supervisor.start({ profileId: 'bench', exe: bin, args })
  if (status.state !== 'ready') throw new Error(`bench: server did not start: ${status.lastExit?.reason}`)
  const readyMs = performance.now() - t0
  const t1 = performance.now()
  await supervisor.stop()
  return { readyMs, stopMs: performance.now() - t1 }
}

/** Start-to-ready and stop latency of the supervisor against the real llama-server, next to a bare spawn. */
export async function benchSupervisor(bin: string, model: string, rounds = 7): Promise<BenchRow[]> {
  const args = ['-m', model, '-c', '4096', '-np', '1']
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-bench-'))
  const supervisor = new ServerSupervisor({ home, healthIntervalMs: 20 })
  const forget = onCleanup(() => supervisor.dispose())
  const raw: Cycle[] = []
  const ours: Cycle[] = []
  try {
    await rawCycle(bin, args) // warm the page cache
    for (let i = 0; i < rounds; i++) {
      // Alternate the order so drift (thermal, page cache, neighbours) cancels.
      if (i % 2 === 0) {
        raw.push(await rawCycle(bin, args))
        ours.push(await supervisedCycle(supervisor, bin, args))
      } else {
        ours.push(await supervisedCycle(supervisor, bin, args))
        raw.push(await rawCycle(bin, args))
      }
    }
  } finally {
    forget()
    await supervisor.dispose()
    rmSync(home, { recursive: true, force: true })
  }
  const group = 'supervisor'
  const baselineName = 'bare spawn + /health poll (20 ms)'
  const rawReady = median(raw.map((c) => c.readyMs))
  const ourReady = median(ours.map((c) => c.readyMs))
  return [
    { group, name: `start → ready, median of ${rounds}`, value: ourReady, unit: 'ms', baseline: rawReady, baselineName },
    { group, name: 'our start overhead (median difference)', value: ourReady - rawReady, unit: 'ms' },
    {
      group,
      name: `stop → exited, median of ${rounds}`,
      value: median(ours.map((c) => c.stopMs)),
      unit: 'ms',
      baseline: median(raw.map((c) => c.stopMs)),
      baselineName: 'bare SIGTERM + wait',
    },
  ]
}
