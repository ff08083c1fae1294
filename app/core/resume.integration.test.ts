import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { EventEmitter } from 'node:events'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PowerEvents } from '../platform/power-source'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { waitUntil } from '../../test/helpers/processes'
import { LlamaTrayCore } from './llama-tray-core'

// Issue #37: after a lid close the server may be broken or hung, and the watchdog noticed a hung one 105 s later.
// Here the core's clocks are injected and wall time jumps an hour ahead of monotonic time (the CLI's resume
// signal; the machine does not really sleep): a server that answers is left alone, one that does not (SIGSTOP,
// as a hung one) is replaced at once, with a fresh session (no restart counted). The watchdog is off, so only
// the resume check can act. Uptime is read against the same injected wall clock: the hour asleep must not show.
// The last case is the app's: powerMonitor's suspend and resume, with a monotonic clock that ran on through the
// sleep (Windows' QueryPerformanceCounter may): the span between them is left out all the same.

let home = ''
let core: LlamaTrayCore
let asleepMs = 0
/** What the monotonic clock counted of the sleeps (0 on Linux; the whole sleep where it runs on, as on Windows). */
let monoAsleepMs = 0
const HOUR = 3_600_000
const wall = (): number => Date.now() + asleepMs
/** powerMonitor as the core sees it (main/power-monitor.ts): suspend and resume events, the source always AC. */
const monitor = new EventEmitter()
const power: PowerEvents = {
  current: () => ({ source: 'ac', batteryPercent: null, charging: null, saver: null }),
  onChange: () => () => {},
  onSuspend: (listener) => (monitor.on('suspend', listener), () => monitor.off('suspend', listener)),
  onResume: (listener) => (monitor.on('resume', listener), () => monitor.off('resume', listener)),
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'llama-tray-resume-'))
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ version: 1, watchdogIntervalS: 0 }))
  core = await LlamaTrayCore.create({
    home,
    telemetry: null,
    cadenceMs: 200,
    clocks: { wall, mono: () => performance.now() + monoAsleepMs },
    power,
  })
  const argv = [llamaServerBin(), '-m', model('tiny-target.gguf'), '-c', '1024', '-np', '1', '-t', '1']
  await core.startSpec({ profileId: 'cli', exe: argv[0] as string, args: argv.slice(1) })
}, 900_000)
afterAll(async () => {
  await core.dispose()
  rmSync(home, { recursive: true, force: true })
})

describe('the core after the machine slept', () => {
  it('checks a ready server at once after a clock jump and keeps it when it answers', async () => {
    const before = core.server.getStatus()
    expect(before.state).toBe('ready')
    asleepMs += HOUR
    await waitUntil(() => core.lastResumeCheck !== null, 60_000, 'the check after the resume')
    expect(core.lastResumeCheck?.answered).toBe(true)
    const after = core.server.getStatus()
    expect(after).toMatchObject({ state: 'ready', pid: before.pid, restarts: 0 })
    if (after.state !== 'ready') throw new Error('not ready')
    expect(wall() - after.readySince).toBeLessThan(HOUR) // uptime: the awake minutes, not the hour asleep
  })

  it('replaces a server that does not answer after the resume at once, counting no restart', async () => {
    const hung = core.server.getStatus()
    if (hung.pid === null) throw new Error('no server')
    process.kill(hung.pid, 'SIGSTOP')
    const checked = core.lastResumeCheck
    asleepMs += HOUR
    await waitUntil(() => core.lastResumeCheck !== checked, 60_000, 'the check after the resume')
    expect(core.lastResumeCheck?.answered).toBe(false)
    await waitUntil(() => core.server.getStatus().state === 'ready' && core.server.getStatus().pid !== hung.pid, 120_000, 'a fresh server')
    expect(core.server.getStatus().restarts).toBe(0)
    expect(core.snapshot().powerNotice).toMatchObject({
      sentence: 'After the sleep the server did not answer, so it was restarted.',
      kind: 'resume',
    })
  }, 180_000)

  it("leaves powerMonitor's suspend-to-resume span out of uptime even where the monotonic clock counted it", async () => {
    const before = core.server.getStatus()
    if (before.state !== 'ready') throw new Error('not ready')
    const uptimeBefore = wall() - before.readySince
    const checked = core.lastResumeCheck
    monitor.emit('suspend')
    asleepMs += HOUR
    monoAsleepMs += HOUR
    monitor.emit('resume')
    await waitUntil(() => core.lastResumeCheck !== checked, 60_000, 'the check after the resume')
    expect(core.lastResumeCheck?.answered).toBe(true)
    const after = core.server.getStatus()
    expect(after).toMatchObject({ state: 'ready', pid: before.pid, restarts: 0 })
    if (after.state !== 'ready') throw new Error('not ready')
    expect(wall() - after.readySince - uptimeBefore).toBeLessThan(HOUR)
  }, 120_000)
})
