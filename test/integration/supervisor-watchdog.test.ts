import { postJson } from '../helpers/post-json'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { LaunchSpec } from '../../app/contract/commands'
import type { ServerStatus } from '../../app/contract/server-state'
import type { WatchdogTick } from '../../app/supervisor/watchdog-policy'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { isRunning } from '../helpers/processes'
import { SupervisorHarness } from '../helpers/supervisor-harness'
import { runningProcess } from '../helpers/server-status'

// Issue #28, first item: the watchdog after ready, against the real llama-server (-t 1, tiny model).
let bin: string
const harnesses: SupervisorHarness[] = []
const QUICK_RESTART = { initialDelayMs: 100, maxDelayMs: 1000, stableAfterMs: 60_000, maxUnstableExits: 5 }

type Recorded = { h: SupervisorHarness; logs: string[]; ticks: WatchdogTick[] }

function harness(options: ConstructorParameters<typeof SupervisorHarness>[0]): Recorded {
  const h = new SupervisorHarness(options)
  harnesses.push(h)
  const logs: string[] = []
  const ticks: WatchdogTick[] = []
  h.supervisor.on('log', (line) => logs.push(line))
  h.supervisor.on('watchdog', (tick) => ticks.push(tick))
  return { h, logs, ticks }
}

function spec(args: string[], ctx = 4096): LaunchSpec {
  return { profileId: 'test', exe: bin, args: ['-m', model('tiny-target.gguf'), '-c', String(ctx), '-np', '1', '-t', '1', ...args] }
}

beforeAll(() => {
  bin = llamaServerBin()
}, 900_000)

afterEach(async () => {
  for (const h of harnesses.splice(0)) {
    await h.dispose()
    expect(h.pids.alive(), 'llama-server processes left behind').toEqual([])
  }
})

describe('the watchdog after ready (real llama-server)', () => {
  it('replaces a SIGSTOPped server: continued and stopped, restarted through the policy, the reason in the state and the log', async () => {
    const { h, logs } = harness({
      watchdog: { intervalMs: 500, misses: 3 },
      stop: { graceMs: 300, secondGraceMs: 300 },
      restartPolicy: QUICK_RESTART,
    })
    const first = await h.supervisor.start(spec([]))
    expect(first.state).toBe('ready')
    const oldPid = runningProcess(first).pid
    process.kill(oldPid, 'SIGSTOP') // the stop sends SIGCONT after its SIGTERM, which the process then takes
    const replaced = await new Promise<ServerStatus>((resolve) => {
      const off = h.supervisor.on('state', (s) => {
        if (s.state === 'ready' && s.pid !== oldPid) {
          off()
          resolve(s)
        }
      })
    })
    expect(replaced.restarts).toBe(1)
    expect(isRunning(oldPid)).toBe(false)
    expect(h.states).toEqual(['starting', 'loading', 'ready', 'stopping', 'backoff', 'starting', 'loading', 'ready'])
    const backoff = h.statuses.find((s) => s.state === 'backoff')
    const reason = 'llama-server stopped answering for 1.5 s'
    expect(backoff?.lastExit).toMatchObject({ kind: 'unresponsive', reason, signal: null })
    expect(logs).toContain('[llama-tray] llama-server stopped answering for 1.5 s; stopping it to restart it')
    expect(logs.some((l) => l.startsWith('[llama-tray] llama-server stopped ('))).toBe(true)
    expect(logs).toContain('[llama-tray] llama-server stopped answering for 1.5 s; restarting in 0.1 s')
  })

  it('replaces a server frozen while idle within 45 s of the freeze, with the default watchdog and stop', async () => {
    // The defaults: a probe every 10 s, three misses; an idle server is probed every 30 s, but its process state is
    // read every 10 s, so a SIGSTOP is the first miss within one interval (it took 105-108 s before).
    const { h, logs, ticks } = harness({ restartPolicy: QUICK_RESTART })
    const first = await h.supervisor.start(spec([]))
    expect(first.state).toBe('ready')
    const oldPid = runningProcess(first).pid
    // Idle: a tick answered with nothing in the log; the next one is an idle tick.
    await new Promise<void>((resolve) => {
      const off = h.supervisor.on('watchdog', (tick) => {
        if (!tick.answered || tick.progressed) return
        off()
        resolve()
      })
    })
    const quietTicks = ticks.length
    process.kill(oldPid, 'SIGSTOP')
    const frozenAt = performance.now()
    const replaced = await new Promise<ServerStatus>((resolve) => {
      const off = h.supervisor.on('state', (n) => {
        if (n.state !== 'ready' || n.pid === oldPid) return
        off()
        resolve(n)
      })
    })
    const seconds = (performance.now() - frozenAt) / 1000
    console.log(`frozen idle server replaced (ready again) ${seconds.toFixed(1)} s after the SIGSTOP`)
    expect(ticks.slice(quietTicks).map((t) => t.answered)).toEqual([false, false, false])
    expect(replaced.restarts).toBe(1)
    expect(isRunning(oldPid)).toBe(false)
    // The stop continued it, so it took its SIGTERM: no wait for the grace times, no SIGKILL.
    expect(logs).toContain('[llama-tray] llama-server stopped answering for 30 s; stopping it to restart it')
    expect(logs.some((l) => l.startsWith('[llama-tray] llama-server stopped ('))).toBe(true)
    expect(seconds).toBeLessThan(45)
  }, 180_000)

  it('keeps a server busy with a long prompt on one thread: ticks run through the request, no restart', async () => {
    // /health on a busy llama-server answers (its HTTP threads are apart from the one computing thread); where it
    // would not, the log's progress keeps the server (ready-watchdog.test.ts). Window 10 s, for a loaded machine.
    const { h, ticks } = harness({ watchdog: { intervalMs: 500, misses: 20 }, restartPolicy: QUICK_RESTART })
    const ready = await h.supervisor.start(spec(['-b', '64', '-ub', '64'], 8192))
    expect(ready.state).toBe('ready')
    const prompt = 'The quick brown fox jumps over the lazy dog while the watchdog keeps counting. '.repeat(170)
    const ticksBefore = ticks.length
    const { status, json } = await postJson(runningProcess(ready).port, '/completion', { prompt, n_predict: 8, cache_prompt: false })
    expect(status).toBe(200)
    expect((json.timings as { prompt_n: number }).prompt_n).toBeGreaterThan(2000)
    const during = ticks.slice(ticksBefore)
    expect(during.length).toBeGreaterThan(0)
    expect(during.every((t) => t.answered || t.progressed)).toBe(true)
    expect(h.supervisor.getStatus()).toMatchObject({ state: 'ready', pid: ready.pid, restarts: 0 })
    expect(h.states).toEqual(['starting', 'loading', 'ready'])
  })
})
