import { describe, expect, it } from 'vitest'
import { FAKE_SERVER } from '../helpers/paths'
import { SupervisorHarness } from '../helpers/supervisor-harness'

// A bounded soak: 200 start/stop cycles against the fake server (loopback only).
const CYCLES = 200

function resourceCounts(): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const r of process.getActiveResourcesInfo()) counts[r] = (counts[r] ?? 0) + 1
  return counts
}

describe('soak', () => {
  it(`${CYCLES} start/stop cycles leave no process and no handle behind`, async () => {
    const h = new SupervisorHarness({ healthIntervalMs: 10 })
    const before = resourceCounts()
    const t0 = Date.now()
    for (let i = 0; i < CYCLES; i++) {
      const ready = await h.supervisor.start({ profileId: `p${i % 2}`, exe: FAKE_SERVER, args: ['--fake-load-ms', '5'] })
      expect(ready.state).toBe('ready')
      const stopped = await h.supervisor.stop()
      expect(stopped.state).toBe('stopped')
      expect(h.pids.alive()).toEqual([])
    }
    const elapsed = Date.now() - t0
    await h.dispose()
    // Give closed sockets and exited children a moment to be released.
    await new Promise((r) => setTimeout(r, 200))
    const after = resourceCounts()
    for (const kind of ['TCPWrap', 'TCPSocketWrap', 'ProcessWrap', 'PipeWrap', 'Timeout']) {
      expect(after[kind] ?? 0, `${kind} handles`).toBeLessThanOrEqual((before[kind] ?? 0) + 1)
    }
    expect(h.states.filter((s) => s === 'ready')).toHaveLength(CYCLES)
    console.log(
      `soak: ${CYCLES} cycles in ${(elapsed / 1000).toFixed(1)} s (${(elapsed / CYCLES).toFixed(0)} ms per start+stop), handles ` +
        `before ${JSON.stringify(before)} after ${JSON.stringify(after)}`,
    )
  }, 180_000)
})
