import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createLiveAdvisor } from '../../app/advisor/live-advisor'
import { missingModelSentence } from '../../app/contract/import-wording'
import { formatCommandLine } from '../../app/lib/command-line'
import { MISSING_MODEL_NOTE } from '../../app/profiles/import-checks'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model, MODELS, REPO_ROOT } from '../helpers/paths'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { nextSnapshots, openDashboard, waitForState, type DashboardSession } from './dashboard-session'
import { serveFolder, type StaticServer } from './static-server'

// Issue #25, "one gate for everything that writes a profile", as a person clicks it: the built renderer in Chromium on a real
// core with the real advisor and the real llama-server on the tiny models. The import form refuses what the CLI refuses and
// offers its overrides as buttons; a save tells the advisor's warnings once beside Save; the editor writes this binary's flags.

const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(REPO_ROOT, 'docs', 'screenshots') : join(REPO_ROOT, 'out', 'screenshots')
let bin: string
let browser: Browser
let site: StaticServer
const sessions: DashboardSession[] = []

beforeAll(async () => {
  bin = llamaServerBin()
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
  mkdirSync(SCREENSHOTS, { recursive: true })
}, 300_000)
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close()
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
})

async function open(): Promise<DashboardSession> {
  const s = await openDashboard(browser, site.url, (home) => {
    const advisor = createLiveAdvisor({ home })
    return { telemetry: null, warnings: advisor.warnings, applyWarningFix: advisor.applyWarningFix, mutes: advisor.mutes }
  })
  sessions.push(s)
  return s
}

describe('the profile gate in the dashboard (Chromium, real core, real advisor, real llama-server)', () => {
  it('a pasted command whose model is missing: the sentence, Import anyway, stored and marked missing', async () => {
    const { page, core } = await open()
    const missing = join(MODELS, 'moved-away.gguf')
    await page.getByTestId('tab-profiles').click()
    await page.getByTestId('import-command').fill(formatCommandLine([bin, '-m', missing, '-c', '2048', '-np', '1', '-t', '1']))
    await page.getByTestId('import-name').fill('moved')
    await page.getByTestId('import-submit').click()
    const error = page.getByTestId('import-error')
    await error.waitFor()
    // The CLI's sentence, with the override named as the button.
    await expect(error.locator('.error-cause').textContent()).resolves.toBe(missingModelSentence(missing, 'dashboard'))
    expect((await core.handlers['profiles:list']()).profiles).toEqual([])

    await page.getByTestId('import-force').click()
    await page.getByTestId('profile-row').filter({ hasText: 'moved' }).waitFor()
    await error.waitFor({ state: 'detached' })
    const [stored] = (await core.handlers['profiles:list']()).profiles
    expect(stored).toMatchObject({ name: 'moved', model: missing })
    expect(stored?.notes).toContain(MISSING_MODEL_NOTE)
    // The editor opens on it, its notes saying why the model is not there.
    await expect(page.getByTestId('profile-editor').getByLabel('Notes').inputValue()).resolves.toContain(MISSING_MODEL_NOTE)
  }, 300_000)

  it('a save the advisor warns about is stored and says "Saved. 1 warning:" beside Save; its fix button fixes it', async () => {
    const { page, core } = await open()
    const line = formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '2048', '-np', '1', '-t', '1'])
    const imported = await core.handlers['profiles:import'](line, 'slots')
    if (!imported.ok) throw new Error(imported.error.sentence)
    const id = imported.value.id
    await page.getByTestId('tab-profiles').click()
    await page.getByTestId('profile-row').filter({ hasText: 'slots' }).locator('.profile-select').click()
    const editor = page.getByTestId('profile-editor')
    // Emptying "Parallel requests" leaves -c without -np: the real advisor's auto-slots warning.
    await editor.getByTestId('edit-parallel').fill('')
    await editor.getByTestId('edit-save').click()
    await expect.poll(() => editor.getByTestId('edit-message').textContent()).toBe('Saved. 1 warning:')
    const finding = editor.getByTestId('save-finding')
    await expect(finding.count()).resolves.toBe(1)
    await expect(finding.getAttribute('data-warning-id')).resolves.toBe(`lint.auto-slots@${id}`)
    await expect(finding.textContent()).resolves.toMatch(/^With -c 2048 and no -np, .*-np 1/)
    // The headline in view, the advisor's reason as its tooltip.
    await expect(finding.locator('.warning-message').textContent()).resolves.toMatch(/^With -c 2048 and no -np, .*4 sequences.*\.$/)
    await expect(finding.locator('.warning-message').getAttribute('title')).resolves.toMatch(
      /^They share the context .* For one user, set -np 1\.$/,
    )
    // Never blocked: the save is stored.
    expect((await core.handlers['profiles:get'](id))?.settings.parallel).toBeUndefined()
    // Save in the middle of the window: the message and the warning with its fix below it are in the picture.
    await editor
      .getByTestId('edit-save')
      .evaluate((e) => (e as unknown as { scrollIntoView(o: { block: string }): void }).scrollIntoView({ block: 'center' }))
    await page.screenshot({ path: join(SCREENSHOTS, 'editor-saved-with-warning.png') })

    await finding.getByTestId('save-finding-fix').click()
    await expect.poll(() => editor.getByTestId('edit-message').textContent()).toBe('Saved in “slots”.')
    await expect(editor.getByTestId('save-finding').count()).resolves.toBe(0)
    expect((await core.handlers['profiles:get'](id))?.settings.parallel).toBe(1)
    await expect.poll(() => editor.getByTestId('edit-parallel').inputValue()).toBe('1')
  }, 300_000)

  it('paste the seed-style command (--no-mmap, -md without --spec-type), Start, ready: told once in its spelling', async () => {
    const { page, core } = await open()
    await page.getByTestId('tab-profiles').click()
    const draft = model('tiny-draft.gguf')
    await page
      .getByTestId('import-command')
      .fill(formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1', '--no-mmap', '-md', draft, '-t', '1']))
    await page.getByTestId('import-name').fill('seed')
    await page.getByTestId('import-submit').click()
    const saved = page.getByTestId('import-saved')
    await saved.waitFor()
    // Both changes the gate made, in the binary's spelling, said once: here and nowhere else on the page.
    const told = (await saved.textContent()) ?? ''
    expect(told).toMatch(/^Imported\. The flag --no-mmap was written as -lm none, because llama\.cpp mainline .*\. /)
    expect(told).toMatch(/ The flag --spec-type draft-simple was added beside -md, because .* does not use -md without it\.$/)
    const body = async (): Promise<string> => (await page.locator('body').textContent()) ?? ''
    expect((await body()).split('was written as -lm none').length - 1).toBe(1)
    expect((await body()).split('was added beside -md').length - 1).toBe(1)
    // Nothing the advisor warns about in what was stored.
    await expect(page.getByTestId('save-finding').count()).resolves.toBe(0)
    const [stored] = (await core.handlers['profiles:list']()).profiles
    if (!stored) throw new Error('the import stored nothing')
    const doc = await core.handlers['profiles:get'](stored.id)
    expect(doc?.settings).toMatchObject({ loadMode: 'none', specType: 'draft-simple' })
    expect(doc?.draftModel).toBe(draft)
    expect(doc?.extraArgs).not.toContain('--no-mmap')

    await page.getByTestId('profile-row').filter({ hasText: 'seed' }).getByTestId('profile-start').click()
    await waitForState(page, 'ready')
    const args = core.server.getLaunchSpec()?.args ?? []
    expect(args.join(' ')).toContain('-lm none')
    expect(args.join(' ')).toContain('--spec-type draft-simple')
    expect(args).not.toContain('--no-mmap')
    // Running, the advisor has nothing to say about it (no "the draft is unused"): no banner.
    await nextSnapshots(core, 3)
    const advised = (await core.handlers['snapshot:latest']())?.warnings ?? []
    expect(advised.filter((w) => w.level !== 'info').map((w) => w.id)).toEqual([])
    await expect(page.getByTestId('warning').count()).resolves.toBe(0)
    // Started without a refusal to fix: no failure in the header, no translation said again.
    await expect(page.getByTestId('failure-notice').count()).resolves.toBe(0)
    expect((await body()).split('was written as -lm none').length - 1).toBeLessThanOrEqual(1)
  }, 300_000)

  it('tick the RAM checkbox, Save, Start, ready: the checkbox writes -lm none on a llama-server whose --help has no --no-mmap', async () => {
    const { page, core } = await open()
    const imported = await core.handlers['profiles:import'](
      formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '2048', '-np', '1', '-t', '1']),
      'into RAM',
    )
    if (!imported.ok) throw new Error(imported.error.sentence)
    const id = imported.value.id
    await page.getByTestId('tab-profiles').click()
    await page.getByTestId('profile-row').filter({ hasText: 'into RAM' }).locator('.profile-select').click()
    const editor = page.getByTestId('profile-editor')
    const ram = editor.getByTestId('edit-noMmap')
    // The control is labelled with this binary's spelling; the flags it lacks have no control (--mlock).
    await expect(editor.locator('label.check:has([data-testid="edit-noMmap"]) code.flag').textContent()).resolves.toBe('-lm none')
    await expect(editor.getByTestId('edit-mlock').count()).resolves.toBe(0)
    await ram.check()
    await editor.getByTestId('edit-save').click()
    // Nothing for the gate to translate, and nothing for the advisor to warn about: just "Saved.".
    await expect.poll(() => editor.getByTestId('edit-message').textContent()).toBe('Saved.')
    const stored = await core.handlers['profiles:get'](id)
    expect(stored?.settings.loadMode).toBe('none')
    expect(stored?.settings.noMmap).toBeUndefined()
    await expect.poll(() => ram.isChecked()).toBe(true)

    await page.getByTestId('profile-row').filter({ hasText: 'into RAM' }).getByTestId('profile-start').click()
    await waitForState(page, 'ready')
    expect(core.server.getLaunchSpec()?.args).toEqual(expect.arrayContaining(['-lm', 'none']))
    expect(core.server.getLaunchSpec()?.args).not.toContain('--no-mmap')
  }, 300_000)
})
