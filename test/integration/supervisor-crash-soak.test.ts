import { describe, expect, it } from 'vitest'
import type { ServerStateKind } from '../../app/contract/server-state'
import { FAKE_SERVER } from '../helpers/paths'
import { isRunning } from '../helpers/processes'
import { SupervisorHarness } from '../helpers/supervisor-harness'

// R1 (docs/reliability-security.md): crash/restart cycles against the fake server with random exit
// codes, random phases and user stops mixed in. Invariants checked at every state change and at the
// end: never two live children at once, no process left, no restart after a user stop.
// The default run is bounded; SOAK_CRASH_CYCLES=1000 is the full soak (its figures are in the README).
const CYCLES = Number(process.env.SOAK_CRASH_CYCLES ?? 60)
const SEED = Number(process.env.SOAK_SEED ?? 20261201)

/** mulberry32: a small seeded PRNG, so a failing run can be replayed with SOAK_SEED. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const EXIT_CODES = [1, 2, 3, 70, 127, 134, 139, 255]
const SIGNALS: NodeJS.Signals[] = ['SIGKILL', 'SIGTERM', 'SIGSEGV', 'SIGABRT']

describe('crash/restart soak (R1)', () => {
  it(`${CYCLES} crash/restart cycles with user stops mixed in: no duplicate child, no leak, no restart after a stop`, async () => {
    const random = prng(SEED)
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T
    const h = new SupervisorHarness({
      healthIntervalMs: 5,
      restartPolicy: { initialDelayMs: 1, maxDelayMs: 8, stableAfterMs: 60_000, maxUnstableExits: 5 },
    })
    const live = new Set<number>()
    let maxLive = 0
    let restarts = 0
    let userStops = 0
    let restartsAfterStop = 0
    let stoppedByUser = false
    let previous: ServerStateKind = 'stopped'
    const phasesAtStop = new Map<ServerStateKind, number>()
    h.supervisor.on('state', (s) => {
      if (s.pid) live.add(s.pid)
      for (const pid of live) if (!isRunning(pid)) live.delete(pid)
      maxLive = Math.max(maxLive, live.size)
      if (s.state === 'starting' && previous === 'backoff') {
        restarts++
        if (stoppedByUser) restartsAfterStop++
      }
      previous = s.state
    })

    const started = Date.now()
    while (restarts < CYCLES) {
      // A start that will fail in a random way: crash while loading, crash once ready, or a signal from outside.
      const how = pick(['crash-loading', 'crash-after', 'signal'] as const)
      const code = String(pick(EXIT_CODES))
      const args =
        how === 'signal'
          ? ['--fake-load-ms', String(Math.floor(random() * 20))]
          : [
              '--fake-mode',
              how,
              '--fake-exit-code',
              code,
              '--fake-crash-ms',
              String(Math.floor(random() * 30)),
              '--fake-load-ms',
              String(Math.floor(random() * 20)),
            ]
      stoppedByUser = false
      const first = await h.supervisor.start({ profileId: `p${Math.floor(random() * 3)}`, exe: FAKE_SERVER, args })
      expect(['ready', 'backoff', 'crashloop', 'errored']).toContain(first.state)

      // Let it crash and restart for a random while, killing it from outside now and then.
      const until = Date.now() + random() * 120
      while (Date.now() < until) {
        const s = h.supervisor.getStatus()
        if (how === 'signal' && s.pid && s.state === 'ready' && random() < 0.5) {
          try {
            process.kill(s.pid, pick(SIGNALS))
          } catch {
            // already gone
          }
        }
        await new Promise((r) => setTimeout(r, random() * 15))
      }

      // The user stops it, in whatever phase it is in.
      const phase = h.supervisor.getStatus().state
      phasesAtStop.set(phase, (phasesAtStop.get(phase) ?? 0) + 1)
      const stopped = await h.supervisor.stop()
      stoppedByUser = true
      userStops++
      expect(stopped.state).toBe('stopped')
      expect(h.pids.alive()).toEqual([])
      // A restart timer that outlived the stop would fire within maxDelayMs (8 ms).
      if (random() < 0.2) await new Promise((r) => setTimeout(r, 12))
    }
    // A restart timer that survived a stop would fire within maxDelayMs: wait well past it.
    await new Promise((r) => setTimeout(r, 100))
    expect(h.supervisor.getStatus().state).toBe('stopped')
    const elapsedS = (Date.now() - started) / 1000
    await h.dispose()

    expect(maxLive).toBeLessThanOrEqual(1)
    expect(restartsAfterStop).toBe(0)
    expect(h.pids.alive()).toEqual([])
    console.log(
      `[soak R1] seed ${SEED}: ${restarts} crash/restart cycles, ${userStops} user stops (phases ` +
        `${JSON.stringify(Object.fromEntries(phasesAtStop))}), ` +
        `max live children ${maxLive}, restarts after a stop ${restartsAfterStop}, processes left ${h.pids.alive().length}, ` +
        `${elapsedS.toFixed(1)} ` +
        `s`,
    )
  }, 900_000)
})
