import { spawn, type ChildProcess } from 'node:child_process'
import { openSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { median, type BenchRow } from './bench-row'
import { startBenchServer, type BenchServer } from './bench-server'
import { trackChild } from './cleanup'
import { completeOnce } from './completion'

/**
 * What llama-server's thread settings do to generation when another process takes a core, as a
 * user's Discord or browser does: the default threads (one per core, spinning while they wait),
 * `--poll 0` (threads sleep instead of spinning) and one thread fewer than the cores. The three
 * servers run side by side and answer in rotating order; idle and busy rounds alternate.
 */
export async function benchThreads(bin: string, model: string, rounds = 6, nPredict = 128): Promise<BenchRow[]> {
  const cores = availableParallelism()
  const fewer = String(Math.max(1, cores - 1))
  const configs: { name: string; args: string[] }[] = [
    { name: 'default threads', args: [] },
    { name: '--poll 0', args: ['--poll', '0'] },
    { name: `-t ${fewer}`, args: ['-t', fewer] },
  ]
  const servers: BenchServer[] = []
  const speeds = new Map<string, { idle: number[]; busy: number[] }>(configs.map((c) => [c.name, { idle: [], busy: [] }]))
  try {
    for (const c of configs) servers.push(await startBenchServer(bin, model, c.args))
    for (const s of servers) await completeOnce(s.baseUrl, 16) // warm-up
    for (let round = 0; round < rounds; round++) {
      const busy = round % 2 === 1
      const hog = busy ? startHog() : null
      try {
        for (let k = 0; k < configs.length; k++) {
          const i = (k + round) % configs.length
          const done = await completeOnce((servers[i] as BenchServer).baseUrl, nPredict)
          const entry = speeds.get((configs[i] as { name: string }).name)!
          ;(busy ? entry.busy : entry.idle).push(done.predictedPerSecond)
        }
      } finally {
        hog?.kill('SIGKILL')
      }
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
  }
  const base = median(speeds.get('default threads')!.idle)
  const rows: BenchRow[] = []
  for (const c of configs) {
    const { idle, busy } = speeds.get(c.name)!
    rows.push({
      group: 'threads',
      name: `${c.name}, idle (${nPredict} tokens, median of ${idle.length}, ${cores} cores)`,
      value: median(idle),
      unit: 'tok/s',
      baseline: base,
      baselineName: 'default threads, idle',
    })
    rows.push({
      group: 'threads',
      name: `${c.name}, one core busy (yes > /dev/null)`,
      value: median(busy),
      unit: 'tok/s',
      baseline: median(idle),
      baselineName: `${c.name}, idle`,
    })
  }
  return rows
}

/** One core kept busy by another process. */
function startHog(): ChildProcess {
  const child = spawn('yes', [], { stdio: ['ignore', openSync('/dev/null', 'w'), 'ignore'] })
  trackChild(child)
  return child
}
