import { describe, expect, it, vi } from 'vitest'
import type { HealthResult } from './health'
import { watchUntilHung } from './ready-watchdog'
import type { WatchdogTick } from './watchdog-policy'

const OPTIONS = { intervalMs: 20, misses: 3 }
const DOWN: HealthResult = { kind: 'down', detail: 'timeout' }
const READY: HealthResult = { kind: 'ready' }

/** A scripted server: each probe takes the next answer (the last one repeats); `lines` and `asleep` are set per probe. */
function scripted(answers: { health: HealthResult; newLines?: number; asleep?: boolean }[], options = OPTIONS) {
  let probes = 0
  let lines = 0
  let asleep = false
  const ticks: WatchdogTick[] = []
  const abort = new AbortController()
  const lineListeners = new Set<() => void>()
  const deps = {
    options,
    signal: abort.signal,
    probe: async (tickEnd: AbortSignal): Promise<HealthResult> => {
      expect(tickEnd.aborted).toBe(false) // asked at the start of its tick
      const a = answers[Math.min(probes++, answers.length - 1)]!
      lines += a.newLines ?? 0
      asleep = a.asleep ?? false
      return a.health
    },
    linesSeen: () => lines,
    onLine: (listener: () => void) => {
      lineListeners.add(listener)
      return () => lineListeners.delete(listener)
    },
    asleep: () => asleep,
    onTick: (t: WatchdogTick) => ticks.push(t),
  }
  /** The server prints a line now. */
  const printLine = (): void => {
    lines++
    for (const listener of lineListeners) listener()
  }
  return { deps, ticks, abort, probes: () => probes, printLine, listening: () => lineListeners.size }
}

describe('watchUntilHung', () => {
  it('gives the reason after three unanswered ticks in a row without progress', async () => {
    const s = scripted([{ health: READY }, { health: DOWN }, { health: DOWN }, { health: DOWN }])
    expect(await watchUntilHung(s.deps)).toBe('llama-server stopped answering for 0.1 s')
    expect(s.ticks.map((t) => t.answered)).toEqual([true, false, false, false])
  })

  it('keeps a busy server whose /health times out while its log moves (prompt processing)', async () => {
    const busy = Array.from({ length: 10 }, () => ({ health: DOWN, newLines: 1 }))
    const s = scripted([...busy, { health: DOWN }])
    expect(await watchUntilHung(s.deps)).not.toBeNull() // only once the log stops too
    expect(s.ticks.slice(0, 10).every((t) => !t.answered && t.progressed)).toBe(true)
    expect(s.ticks.length).toBe(13)
  })

  it('never counts a sleeping server, and ends with no verdict when the run ends', async () => {
    const s = scripted([{ health: READY, asleep: true }])
    const watching = watchUntilHung(s.deps)
    while (s.ticks.length < 5) await new Promise((r) => setTimeout(r, 10))
    s.abort.abort()
    expect(await watching).toBeNull()
    expect(s.ticks.every((t) => t.asleep)).toBe(true)
    expect(s.probes()).toBe(1) // asleep from the first answer on: not asked again
  })

  it('probes an idle server less often, and at once when its log moves again', async () => {
    vi.useFakeTimers()
    try {
      const options = { intervalMs: 10_000, misses: 3 }
      const s = scripted([{ health: READY }], options)
      const watching = watchUntilHung(s.deps)
      await vi.advanceTimersByTimeAsync(options.intervalMs) // the first tick: answered, nothing in the log
      expect(s.ticks).toEqual([{ asleep: false, answered: true, progressed: false }])
      await vi.advanceTimersByTimeAsync(options.intervalMs) // idle: the next tick lasts 3 intervals
      expect(s.ticks.length).toBe(1)
      expect(s.probes()).toBe(2)
      expect(s.listening()).toBe(1)
      s.printLine() // a request starts: its log line ends the idle tick at once
      await vi.advanceTimersByTimeAsync(0)
      expect(s.ticks.length).toBe(2)
      expect(s.ticks[1]!.progressed).toBe(true)
      expect(s.probes()).toBe(3) // and the next tick, at the usual pace, probes at once
      expect(s.listening()).toBe(0)
      s.abort.abort()
      expect(await watching).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })

  it('finds an idle server stopped within one interval, and names it hung two intervals later', async () => {
    vi.useFakeTimers()
    try {
      const options = { intervalMs: 10_000, misses: 3 }
      let stopped = false
      const looks: number[] = []
      const s = scripted([{ health: READY }], options)
      const watching = watchUntilHung({
        ...s.deps,
        // Stopped, it answers nothing: the probes from now on stay unanswered.
        probe: async (tickEnd) =>
          stopped ? new Promise<HealthResult>((r) => tickEnd.addEventListener('abort', () => r(DOWN))) : s.deps.probe(tickEnd),
        stopped: () => (looks.push(Date.now()), stopped),
      })
      let verdict: string | null | undefined
      void watching.then((v) => (verdict = v))
      await vi.advanceTimersByTimeAsync(options.intervalMs) // answered, quiet: the next tick is an idle one
      expect(s.ticks).toHaveLength(1)
      await vi.advanceTimersByTimeAsync(1000)
      stopped = true // SIGSTOP, 1 s into the idle tick
      const frozenAt = Date.now()
      await vi.advanceTimersByTimeAsync(options.intervalMs) // the look at the end of the first step sees it
      expect(s.ticks[1]).toEqual({ asleep: false, answered: false, progressed: false })
      await vi.advanceTimersByTimeAsync(2 * options.intervalMs) // two more misses at the usual pace
      expect(verdict).toBe('llama-server stopped answering for 30 s')
      expect(Date.now() - frozenAt).toBeLessThanOrEqual(3 * options.intervalMs)
      expect(looks.length).toBeGreaterThan(0)
    } finally {
      vi.useRealTimers()
    }
  })

  it('counts a tick whose probe answered as a miss once the process is found stopped at its end', async () => {
    let stopped = false
    const s = scripted([{ health: READY }])
    const watching = watchUntilHung({
      ...s.deps,
      probe: async (tickEnd) => {
        const answer = await s.deps.probe(tickEnd)
        if (s.probes() === 2) stopped = true // frozen right after it answered
        return answer
      },
      stopped: () => stopped,
    })
    expect(await watching).toBe('llama-server stopped answering for 0.1 s')
    expect(s.ticks.map((t) => t.answered)).toEqual([true, false, false, false])
  })
})
