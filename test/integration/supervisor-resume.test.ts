import { afterAll, describe, expect, it } from 'vitest'
import { AwakeClock } from '../../app/lib/awake-clock'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { waitUntil } from '../helpers/processes'
import { SupervisorHarness } from '../helpers/supervisor-harness'

// Issue #37: a sleep is never a crash or a crash loop. The supervisor's awake clock runs on injected clocks whose
// wall time jumps an hour ahead of monotonic time (what a resume looks like on Linux; nothing really sleeps). The real
// llama-server, killed just after that resume (a CUDA context lost in the sleep ends it so), is started again at once
// and no restart is counted; the same kill with no sleep before it is a crash, counted, as always.

let asleepMs = 0
const HOUR = 3_600_000
const wall = (): number => Date.now() + asleepMs
const clock = new AwakeClock({ wall, mono: () => performance.now() })
const h = new SupervisorHarness({ clock, healthIntervalMs: 100 })
afterAll(() => h.dispose())

describe('the supervisor across a sleep', () => {
  it('starts a server that ended just after a resume again at once, counting no restart; a later crash counts', async () => {
    const argv = [llamaServerBin(), '-m', model('tiny-target.gguf'), '-c', '1024', '-np', '1', '-t', '1']
    const first = await h.supervisor.start({ profileId: 'cli', exe: argv[0] as string, args: argv.slice(1) })
    if (first.state !== 'ready') throw new Error(`not ready: ${first.state}`)
    asleepMs += HOUR
    process.kill(first.pid, 'SIGKILL')
    await waitUntil(
      () => h.supervisor.getStatus().state === 'ready' && h.supervisor.getStatus().pid !== first.pid,
      120_000,
      'a fresh server',
    )
    const second = h.supervisor.getStatus()
    if (second.state !== 'ready') throw new Error('not ready')
    expect(second.restarts).toBe(0)
    expect(h.states).not.toContain('crashloop')
    expect(h.supervisor.getLogs().some((l) => l.includes('just after the machine woke'))).toBe(true)
    expect(wall() - second.readySince).toBeLessThan(HOUR) // its uptime counts from its own start, awake

    // The control: this process never slept, so its end is a crash (backoff, one restart counted).
    process.kill(second.pid, 'SIGKILL')
    await h.waitFor('backoff')
    await waitUntil(() => h.supervisor.getStatus().state === 'ready', 120_000, 'the restart after the crash')
    expect(h.supervisor.getStatus().restarts).toBe(1)
  })
})
