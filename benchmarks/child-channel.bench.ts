import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { CHANNEL_ENV, CHILD_STATE_PREFIX } from '../app/supervisor/child-channel'
import { findFreePort } from '../app/supervisor/free-port'
import { ServerSupervisor } from '../app/supervisor/supervisor'
import { PROGRESS_MODEL_ARGS, writeProgressModel } from '../test/helpers/synthetic/progress-model'
import { median, type BenchRow } from './bench-row'
import { onCleanup, trackChild } from './cleanup'

/** The progress statuses of one load of the synthetic 0.5 GB model: how many, and the gaps between them. */
async function progressCadence(bin: string, home: string, model: string): Promise<{ count: number; gapsMs: number[] }> {
  const supervisor = new ServerSupervisor({ home, healthIntervalMs: 20 })
  const forget = onCleanup(() => supervisor.dispose())
  const times: number[] = []
  supervisor.on('state', (s) => {
    if (s.state === 'loading' && s.progress) times.push(performance.now())
  })
  try {
    const status = await supervisor.start({ profileId: 'cadence', exe: bin, args: ['-m', model, ...PROGRESS_MODEL_ARGS] })
    if (status.state !== 'ready') throw new Error(`bench: the synthetic model did not load: ${status.lastExit?.reason}`)
  } finally {
    forget()
    await supervisor.dispose()
  }
  return { count: times.length, gapsMs: times.slice(1).map((t, i) => t - (times[i] as number)) }
}

/** One start and stop of the tiny model; the stop's time (to its exit) in ms. */
async function stopMs(supervisor: ServerSupervisor, bin: string, args: string[]): Promise<number> {
  const status = await supervisor.start({ profileId: 'stop', exe: bin, args })
  if (status.state !== 'ready') throw new Error(`bench: server did not start: ${status.lastExit?.reason}`)
  const t0 = performance.now()
  await supervisor.stop()
  return performance.now() - t0
}

/** What our death costs a ready server with the channel: its stdin closed → its exit (a bare spawn, no supervisor). */
async function eofExitMs(bin: string, args: string[]): Promise<number> {
  const port = await findFreePort()
  const child = spawn(bin, [...args, '--host', '127.0.0.1', '--port', String(port)], {
    env: { ...process.env, [CHANNEL_ENV]: String(port) },
    stdio: ['pipe', 'pipe', 'ignore'],
  })
  trackChild(child)
  const exited = new Promise((r) => child.once('exit', r))
  await new Promise<void>((resolve) => {
    let text = ''
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      text += c
      if (text.includes(`${CHILD_STATE_PREFIX}{"state":"ready"`)) resolve()
    })
  })
  const t0 = performance.now()
  child.stdin.end()
  await exited
  return performance.now() - t0
}

/**
 * llama-server's child channel: the cadence of the load progress it reports (a synthetic Qwen3.5-0.8B read
 * with -lm none), the stop through stdin against the stop by signal (alternated, the tiny model), and the
 * exit of a server whose supervisor died (stdin EOF).
 */
export async function benchChildChannel(bin: string, tinyModel: string, rounds = 7): Promise<BenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-bench-channel-'))
  const model = await writeProgressModel()
  const args = ['-m', tinyModel, '-c', '1024', '-np', '1', '-t', '1']
  const channel = new ServerSupervisor({ home, serverName: 'channel', healthIntervalMs: 20 })
  const signals = new ServerSupervisor({ home, serverName: 'signals', healthIntervalMs: 20, childChannel: () => Promise.resolve(false) })
  const forget = onCleanup(async () => {
    await channel.dispose()
    await signals.dispose()
  })
  const viaChannel: number[] = []
  const viaSignal: number[] = []
  const eof: number[] = []
  let cadence: { count: number; gapsMs: number[] }
  try {
    cadence = await progressCadence(bin, home, model)
    for (let i = 0; i < rounds; i++) {
      // Alternated, so drift (page cache, neighbours) cancels.
      if (i % 2 === 0) {
        viaChannel.push(await stopMs(channel, bin, args))
        viaSignal.push(await stopMs(signals, bin, args))
      } else {
        viaSignal.push(await stopMs(signals, bin, args))
        viaChannel.push(await stopMs(channel, bin, args))
      }
      eof.push(await eofExitMs(bin, args))
    }
  } finally {
    forget()
    await channel.dispose()
    await signals.dispose()
    rmSync(home, { recursive: true, force: true })
    rmSync(dirname(model), { recursive: true, force: true })
  }
  const group = 'child channel'
  return [
    { group, name: 'load progress statuses, one load of a 0.5 GB model', value: cadence.count, unit: 'statuses' },
    { group, name: 'gap between progress statuses, median', value: median(cadence.gapsMs), unit: 'ms' },
    { group, name: 'gap between progress statuses, longest', value: Math.max(...cadence.gapsMs), unit: 'ms' },
    {
      group,
      name: `stop → exited through stdin, median of ${rounds}`,
      value: median(viaChannel),
      unit: 'ms',
      baseline: median(viaSignal),
      baselineName: 'the same stop by signal (SIGTERM)',
    },
    { group, name: `stdin closed (supervisor died) → exited, median of ${rounds}`, value: median(eof), unit: 'ms' },
  ]
}
