import { afterEach, describe, expect, it } from 'vitest'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { isRunning } from '../../test/helpers/processes'
import { compareProfiles } from './compare'
import { BenchCancelledError } from './bench-launch'
import { addProfile, llamaServerChildren, makeCore, SMALL, tinyDraft, tinyTarget, type TestCore } from '../../test/support/core/tiny-core'
import { tuneProfile } from './tune'

const cores: TestCore[] = []
afterEach(async () => {
  for (const c of cores.splice(0)) await c.dispose()
})

async function setup(): Promise<{ t: TestCore; a: string; b: string }> {
  const bin = llamaServerBin()
  const t = await makeCore()
  cores.push(t)
  const a = await addProfile(t.home, 'a', [bin, '-m', tinyTarget, ...SMALL])
  const b = await addProfile(t.home, 'b', [bin, '-m', tinyTarget, '-md', tinyDraft, '--spec-type', 'draft-simple', ...SMALL])
  return { t, a, b }
}

describe('cancelling a bench', () => {
  it('mid-request of the second profile: the profile that ran before runs again, nothing else is left', async () => {
    const { t, a, b } = await setup()
    expect((await t.core.handlers['server:start'](a)).ok).toBe(true)
    const specBefore = JSON.stringify(t.core.server.getLaunchSpec())
    const abort = new AbortController()
    const job = compareProfiles(
      {
        core: t.core,
        home: t.home,
        signal: abort.signal,
        onProgress: (p) => {
          if (p.phase === 'run' && p.profileId === b) setTimeout(() => abort.abort(), 300) // while generating
        },
      },
      [a, b],
      { runs: 2, tokens: 128, rounds: 1 },
    )
    await expect(job).rejects.toBeInstanceOf(BenchCancelledError)
    const status = t.core.server.getStatus()
    expect(status.state).toBe('ready')
    expect(JSON.stringify(t.core.server.getLaunchSpec())).toBe(specBefore)
    expect(llamaServerChildren()).toEqual([status.pid])
    for (const pid of t.pids) if (pid !== status.pid) expect(isRunning(pid)).toBe(false)
  }, 300_000)

  it('during a tune warm-up with nothing running before: stopped again, no process', async () => {
    const { t, a } = await setup()
    const abort = new AbortController()
    const job = tuneProfile(
      { core: t.core, home: t.home, signal: abort.signal, onProgress: (p) => p.phase === 'warmup' && abort.abort() },
      a,
      { runs: 1, tokens: 32 },
    )
    await expect(job).rejects.toBeInstanceOf(BenchCancelledError)
    expect(t.core.server.getStatus().state).toBe('stopped')
    expect(llamaServerChildren()).toEqual([])
    for (const pid of t.pids) expect(isRunning(pid)).toBe(false)
  }, 300_000)
})
