import { decideSwitch, type HeldRequest, type PolicyInput } from '../../../app/core/switch-policy'

const base: PolicyInput = {
  now: 0,
  running: 'a',
  ready: true,
  loadedAt: 0,
  inFlight: 0,
  held: [],
  decided: null,
  forced: false,
  minResidencyMs: 10_000,
  drainMs: 60_000,
}

/**
 * Replays an arrival trace against the policy with a simulated server: each
 * admitted request runs `serveMs`, a switch takes `loadMs`. Returns the loads
 * and each request's wait (arrival to admission). Clock-free: time is a number.
 */
export function replay(
  trace: readonly [string, number][],
  minResidencyMs: number,
  serveMs = 1000,
  loadMs = 5000,
): { loads: string[]; waits: (number | null)[] } {
  let now = 0
  let running: string | null = 'a'
  let loadedAt: number | null = 0
  let decided = null as { target: string; at: number } | null
  let pending = trace.map(([profileId, at], id) => ({ id, profileId, arrivedAt: at }))
  let waiting: HeldRequest[] = []
  const serving: number[] = [] // end times
  const loads: string[] = []
  const waits = new Map<number, number>()
  for (let step = 0; step < 10_000 && (pending.length || waiting.length || serving.length); step++) {
    waiting = [...waiting, ...pending.filter((p) => p.arrivedAt <= now)]
    pending = pending.filter((p) => p.arrivedAt > now)
    const d = decideSwitch({ ...base, now, running, loadedAt, inFlight: serving.length, held: waiting, decided, minResidencyMs })
    for (const id of d.admit) {
      waits.set(id, now - (waiting.find((w) => w.id === id) as HeldRequest).arrivedAt)
      serving.push(now + serveMs)
    }
    waiting = waiting.filter((w) => !d.admit.includes(w.id))
    if (d.switchTo !== null && decided?.target !== d.switchTo) decided = { target: d.switchTo, at: now }
    if (d.startNow && d.switchTo !== null) {
      loads.push(d.switchTo)
      now += loadMs
      running = d.switchTo
      loadedAt = now
      decided = null
      continue
    }
    // The next event: a request ends, one arrives, or the policy's timer.
    const next = Math.min(...serving, ...pending.map((p) => p.arrivedAt), d.wakeAt ?? Infinity)
    now = Math.max(now, next)
    for (let i = serving.length - 1; i >= 0; i--) if ((serving[i] as number) <= now) serving.splice(i, 1)
  }
  return { loads, waits: trace.map((_, id) => waits.get(id) ?? null) }
}
