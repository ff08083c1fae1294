import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { waitUntil } from '../../test/helpers/processes'
import { LlamaTrayCore } from './llama-tray-core'

// Issue #37: after a lid close the server may be broken or hung, and the watchdog noticed a hung one 105 s later.
// Here the core's clocks are injected and wall time jumps an hour ahead of monotonic time (the CLI's resume
// signal; the machine does not really sleep): a server that answers is left alone, one that does not (SIGSTOP,
// as a hung one) is replaced at once, with a fresh session (no restart counted). The watchdog is off, so only
// the resume check can act.

let home = ''
let core: LlamaTrayCore
let asleepMs = 0

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'llama-tray-resume-'))
  writeFileSync(join(home, 'settings.json'), JSON.stringify({ version: 1, watchdogIntervalS: 0 }))
  core = await LlamaTrayCore.create({
    home,
    telemetry: null,
    cadenceMs: 200,
    clocks: { wall: () => Date.now() + asleepMs, mono: () => performance.now() },
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
    asleepMs += 3_600_000
    await waitUntil(() => core.lastResumeCheck !== null, 60_000, 'the check after the resume')
    expect(core.lastResumeCheck?.answered).toBe(true)
    expect(core.server.getStatus()).toMatchObject({ state: 'ready', pid: before.pid, restarts: 0 })
  })

  it('replaces a server that does not answer after the resume at once, counting no restart', async () => {
    const hung = core.server.getStatus()
    if (hung.pid === null) throw new Error('no server')
    process.kill(hung.pid, 'SIGSTOP')
    const checked = core.lastResumeCheck
    asleepMs += 3_600_000
    await waitUntil(() => core.lastResumeCheck !== checked, 60_000, 'the check after the resume')
    expect(core.lastResumeCheck?.answered).toBe(false)
    await waitUntil(() => core.server.getStatus().state === 'ready' && core.server.getStatus().pid !== hung.pid, 120_000, 'a fresh server')
    expect(core.server.getStatus().restarts).toBe(0)
    expect(core.snapshot().powerNotice).toMatchObject({
      sentence: 'After the sleep the server did not answer, so it was restarted.',
      kind: 'resume',
    })
  }, 180_000)
})
