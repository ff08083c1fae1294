import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { model } from '../../test/helpers/paths'
import { missingFileFix } from './missing-file-fix'

const root = mkdtempSync(join(tmpdir(), 'llama-tray-moved-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

// No LM Studio, HF cache or ~/models of the machine running the test: the user's home is an empty folder.
const search = (extraModelDirs: readonly string[]) => ({ extraModelDirs, homedir: join(root, 'home'), env: {} })

describe('the fix for a model file that is gone', () => {
  it('uses the file of the same name and recorded size found in a model folder, and says where it found it', async () => {
    const downloads = join(root, 'Downloads')
    mkdirSync(downloads, { recursive: true })
    copyFileSync(model('tiny-target.gguf'), join(downloads, 'moved.gguf'))
    const knownSize = statSync(model('tiny-target.gguf')).size
    const fixed = await missingFileFix('model-missing', join(root, 'old', 'moved.gguf'), 'qwen', { ...search([downloads]), knownSize })
    expect(fixed).toEqual({
      fix: {
        label: 'Use moved.gguf from Downloads',
        run: { command: 'profiles:use-file', profileId: 'qwen', role: 'model', path: join(downloads, 'moved.gguf') },
        cli: `llama-tray profiles set-model qwen ${join(downloads, 'moved.gguf')}`,
      },
      found: 'found moved.gguf in Downloads',
    })
  })

  it('a file of the same name but another size is not the one that moved: the file dialog', async () => {
    const elsewhere = join(root, 'Elsewhere')
    mkdirSync(elsewhere, { recursive: true })
    copyFileSync(model('tiny-draft.gguf'), join(elsewhere, 'other.gguf'))
    const knownSize = statSync(model('tiny-draft.gguf')).size + 1
    const fixed = await missingFileFix('model-missing', join(root, 'old', 'other.gguf'), 'qwen', { ...search([elsewhere]), knownSize })
    expect(fixed?.found).toBeNull()
    expect(fixed?.fix.run).toEqual({ command: 'profiles:choose-file', profileId: 'qwen', role: 'model' })
  })

  it('with no recorded size, the name alone: offered, and said less surely', async () => {
    const named = join(root, 'Named')
    mkdirSync(named, { recursive: true })
    copyFileSync(model('tiny-target.gguf'), join(named, 'unsized.gguf'))
    const fixed = await missingFileFix('model-missing', join(root, 'old', 'unsized.gguf'), 'qwen', search([named]))
    expect(fixed?.found).toBe('a file named unsized.gguf is in Named')
    expect(fixed?.fix.label).toBe('Use unsized.gguf from Named')
  })

  it('finds it beside the folder it was in (moved to a sibling folder)', async () => {
    mkdirSync(join(root, 'models', 'new'), { recursive: true })
    copyFileSync(model('tiny-draft.gguf'), join(root, 'models', 'new', 'draft.gguf'))
    const fixed = await missingFileFix('draft-missing', join(root, 'models', 'old', 'draft.gguf'), 'qwen', search([]))
    expect(fixed?.fix.run).toEqual({
      command: 'profiles:use-file',
      profileId: 'qwen',
      role: 'draftModel',
      path: join(root, 'models', 'new', 'draft.gguf'),
    })
    expect(fixed?.fix.cli).toMatch(/^llama-tray profiles set-draft qwen /)
  })

  it('offers the file dialog when no file of that name is found', async () => {
    const fixed = await missingFileFix('model-missing', join(root, 'gone', 'nowhere.gguf'), 'qwen', search([]))
    expect(fixed).toEqual({
      fix: {
        label: 'Choose the file…',
        run: { command: 'profiles:choose-file', profileId: 'qwen', role: 'model' },
        cli: 'llama-tray profiles set-model qwen <file.gguf>',
      },
      found: null,
    })
  })

  it('is no fix for other failures', async () => {
    expect(await missingFileFix('binary-missing', join(root, 'llama-server'), 'qwen', search([]))).toBeNull()
  })
})
