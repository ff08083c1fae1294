import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../contract/settings'
import { LlamaTrayCore } from '../core/llama-tray-core'
import { LiveAdvisor } from './live-advisor'
import { MUTES_FILE } from './mutes'
import { sample } from '../../test/support/advisor/replay'
import { splitWarningId } from './warning-id'

const homes: string[] = []
afterEach(async () => {
  for (const h of homes.splice(0)) await rm(h, { recursive: true, force: true })
})

async function setup(): Promise<{ core: LlamaTrayCore; advisor: LiveAdvisor; home: string; hot: (profileId: string) => string[] }> {
  const home = await mkdtemp(join(tmpdir(), 'llama-tray-mutes-'))
  homes.push(home)
  const clock = { t: 0 }
  const advisor = new LiveAdvisor({ home, now: () => clock.t, platform: 'linux' })
  const core = await LlamaTrayCore.create({
    home,
    telemetry: null,
    warnings: advisor.warnings,
    applyWarningFix: advisor.applyWarningFix,
    mutes: advisor.mutes,
  })
  // Five hot samples raise live.gpu-hot for the profile (if it is not muted): the ids shown after them.
  const hot = (profileId: string): string[] => {
    let ids: string[] = []
    for (let i = 0; i < 5; i++) {
      clock.t += 1000
      ids = advisor.warnings(sample({ time: clock.t, profileId, temperatureC: 90 }), DEFAULT_SETTINGS).map((w) => w.id)
    }
    return ids
  }
  return { core, advisor, home, hot }
}

describe('warnings:mute, warnings:muted and warnings:unmute over the core', () => {
  it('mutes a warning for its profile only, stores it, lists it, and unmuting shows it again', async () => {
    const { core, home, hot } = await setup()
    try {
      const id = hot('p').find((w) => w.startsWith('live.gpu-hot@'))
      expect(id).toBe('live.gpu-hot@p')
      expect(await core.handlers['warnings:mute'](id!)).toEqual({ ok: true, value: ['live.gpu-hot'] })
      expect(hot('p')).not.toContain('live.gpu-hot@p')
      expect(hot('q')).toContain('live.gpu-hot@q')
      expect(await core.handlers['warnings:muted']('p')).toEqual(['live.gpu-hot'])
      expect(await core.handlers['warnings:muted']('q')).toEqual([])
      expect(JSON.parse(await readFile(join(home, MUTES_FILE), 'utf8'))).toEqual({ version: 1, profiles: { p: ['live.gpu-hot'] } })

      expect(await core.handlers['warnings:unmute']('p', 'live.gpu-hot')).toEqual({ ok: true, value: [] })
      expect(hot('p')).toContain('live.gpu-hot@p')
    } finally {
      await core.dispose()
    }
  })

  it('refuses warnings of no profile and keys that are not muted, with a reason', async () => {
    const { core } = await setup()
    try {
      const none = await core.handlers['warnings:mute']('live.heavy-apps@none')
      expect(none.ok).toBe(false)
      if (!none.ok) expect(none.error.sentence).toMatch(/concerns no profile/)
      const unknown = await core.handlers['warnings:unmute']('p', 'live.gpu-hot')
      expect(unknown.ok).toBe(false)
      if (!unknown.ok) expect(unknown.error.sentence).toMatch(/not muted/)
    } finally {
      await core.dispose()
    }
  })

  it('splits ids at the last @ (details may hold one), and names no profile for "none" or a bare rule', () => {
    expect(splitWarningId('lint.duplicate-flag:-vhad@seed-000')).toEqual({ profileId: 'seed-000', key: 'lint.duplicate-flag:-vhad' })
    expect(splitWarningId('lint.unknown-flag:--x@y@prof')).toEqual({ profileId: 'prof', key: 'lint.unknown-flag:--x@y' })
    expect(splitWarningId('live.heavy-apps@none')).toBeNull()
    expect(splitWarningId('live.heavy-apps')).toBeNull()
    expect(splitWarningId('live.heavy-apps@')).toBeNull()
  })
})
