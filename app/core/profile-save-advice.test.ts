import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createLiveAdvisor } from '../advisor/live-advisor'
import { formatCommandLine } from '../lib/command-line'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { LlamaTrayCore } from './llama-tray-core'

// Issue #25: the advisor is part of the gate at save. A save from the editor (profiles:update), an import or a pasted command
// (profiles:set-command) returns the advisor's warn-level findings on what was stored, with their fixes; they never block the
// save, and the fix they carry is the one warnings:apply-fix applies. The real llama-server's --help gives the engine.
let bin: string
const made: { core: LlamaTrayCore; home: string }[] = []

beforeAll(() => {
  bin = llamaServerBin()
}, 900_000)
afterEach(async () => {
  for (const { core, home } of made.splice(0)) {
    await core.dispose()
    rmSync(home, { recursive: true, force: true })
  }
})

async function makeCore(): Promise<LlamaTrayCore> {
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-save-advice-'))
  const advisor = createLiveAdvisor({ home })
  const core = await LlamaTrayCore.create({
    home,
    telemetry: null,
    warnings: advisor.warnings,
    applyWarningFix: advisor.applyWarningFix,
    mutes: advisor.mutes,
  })
  made.push({ core, home })
  return core
}

// -c without -np: the advisor's auto-slots warning (mainline's 4 slots), fixed by -np 1.
const AUTO_SLOTS = ['-m', model('tiny-target.gguf'), '-c', '2048', '-t', '1']

describe('a save returns the advisor findings on what it stored', () => {
  it('an import is stored and says its warning, whose fix warnings:apply-fix applies; the next save says none', async () => {
    const core = await makeCore()
    const imported = await core.handlers['profiles:import'](formatCommandLine([bin, ...AUTO_SLOTS]), 'slots')
    if (!imported.ok) throw new Error(imported.error.sentence)
    const id = imported.value.id
    expect(imported.value.findings).toEqual([
      expect.objectContaining({
        id: `lint.auto-slots@${id}`,
        level: 'warn',
        // Through the handler as the advisor wrote them: the headline, and the reason apart.
        headline: 'With -c 2048 and no -np, this llama-server serves 4 slots, so buffers are sized for 4 sequences.',
        reason: expect.stringMatching(/^They share the context of -c 2048 \(unified KV\).* For one user, set -np 1\.$/),
        profileId: id,
        fix: { label: 'Use one slot (-np 1)', removeArgs: [], addArgs: ['-np', '1'] },
      }),
    ])
    expect((await core.handlers['profiles:list']()).profiles.map((p) => p.id)).toEqual([id])

    const fixed = await core.handlers['warnings:apply-fix'](`lint.auto-slots@${id}`)
    expect(fixed.ok).toBe(true)
    expect((await core.handlers['profiles:get'](id))?.settings.parallel).toBe(1)
    const again = await core.handlers['profiles:update'](id, { notes: 'checked' })
    if (!again.ok) throw new Error(again.error.sentence)
    expect(again.value.findings).toBeUndefined()
  }, 120_000)

  it('an editor save and a pasted command that bring the warning back store the change and say it', async () => {
    const core = await makeCore()
    const imported = await core.handlers['profiles:import'](formatCommandLine([bin, ...AUTO_SLOTS, '-np', '1']), 'one slot')
    if (!imported.ok) throw new Error(imported.error.sentence)
    const id = imported.value.id
    expect(imported.value.findings).toBeUndefined()
    const doc = await core.handlers['profiles:get'](id)
    if (!doc) throw new Error('no profile')

    const { parallel: _dropped, ...withoutParallel } = doc.settings
    const edited = await core.handlers['profiles:update'](id, { settings: withoutParallel })
    if (!edited.ok) throw new Error(edited.error.sentence)
    expect(edited.value.findings?.map((f) => f.id)).toEqual([`lint.auto-slots@${id}`])
    expect((await core.handlers['profiles:get'](id))?.settings.parallel).toBeUndefined()

    const pasted = await core.handlers['profiles:set-command'](
      id,
      formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '1024', '-t', '1']),
    )
    if (!pasted.ok) throw new Error(pasted.error.sentence)
    expect(pasted.value.findings?.map((f) => f.id)).toEqual([`lint.auto-slots@${id}`])
    expect((await core.handlers['profiles:get'](id))?.settings.ctxSize).toBe(1024)
  }, 120_000)

  it('a warning the user muted for the profile is not said again at save', async () => {
    const core = await makeCore()
    const imported = await core.handlers['profiles:import'](formatCommandLine([bin, ...AUTO_SLOTS]), 'muted')
    if (!imported.ok) throw new Error(imported.error.sentence)
    const id = imported.value.id
    expect((await core.handlers['warnings:mute'](`lint.auto-slots@${id}`)).ok).toBe(true)
    const saved = await core.handlers['profiles:update'](id, { notes: 'muted it' })
    if (!saved.ok) throw new Error(saved.error.sentence)
    expect(saved.value.findings).toBeUndefined()
  }, 120_000)
  it('a save of the running profile leaves its finding to the live warnings: one finding appears once', async () => {
    const core = await makeCore()
    const imported = await core.handlers['profiles:import'](formatCommandLine([bin, ...AUTO_SLOTS, '-np', '1']), 'running')
    if (!imported.ok) throw new Error(imported.error.sentence)
    const id = imported.value.id
    expect((await core.handlers['server:start'](id)).ok).toBe(true)
    const doc = await core.handlers['profiles:get'](id)
    if (!doc) throw new Error('no profile')

    const { parallel: _dropped, ...withoutParallel } = doc.settings
    const edited = await core.handlers['profiles:update'](id, { settings: withoutParallel })
    if (!edited.ok) throw new Error(edited.error.sentence)
    // Not in the save's result: the advisor re-lints the stored profile that runs, and its warnings say it.
    expect(edited.value.findings).toBeUndefined()
    const said = async (): Promise<string[]> =>
      ((await core.handlers['snapshot:latest']())?.warnings ?? []).map((w) => w.id).filter((w) => w === `lint.auto-slots@${id}`)
    await expect.poll(said, { timeout: 60_000 }).toEqual([`lint.auto-slots@${id}`])
    await core.handlers['server:stop']()
  }, 120_000)
})
