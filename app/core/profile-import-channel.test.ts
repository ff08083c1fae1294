import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { duplicateNameSentence, missingModelSentence, notAServerSentence } from '../contract/import-wording'
import { formatCommandLine } from '../lib/command-line'
import { MISSING_MODEL_NOTE } from '../profiles/import-checks'
import { ProfileStore } from '../profiles/store'
import { model } from '../../test/helpers/paths'
import { profileCommands } from './profile-commands'

// Issue #25: the dashboard's import (profiles:import) refuses what the CLI's import refuses, through the same module and
// with the same sentences, and offers the CLI's --force and --replace as "Import anyway" and "Replace".
const homes: string[] = []
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true })
})

function channel(): { home: string; handlers: ReturnType<typeof profileCommands> } {
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-import-channel-'))
  homes.push(home)
  // A binary path that is not on this machine: the gate has no engine to ask, the import checks still run.
  return { home, handlers: profileCommands({ home, chooseFile: async () => null, onChanged: async () => {} }) }
}

const SERVER = '/opt/llama.cpp/llama-server'
const stored = async (home: string): Promise<readonly { name: string; notes: string; model: string }[]> =>
  (await ProfileStore.open(home)).file.profiles

describe('profiles:import refuses what the CLI refuses', () => {
  it('a -m file that does not exist: the sentence names it, nothing is stored; Import anyway stores it marked missing', async () => {
    const { home, handlers } = channel()
    const missing = join(home, 'moved-away.gguf')
    const line = formatCommandLine([SERVER, '-m', missing, '-c', '4096'])
    const refused = await handlers['profiles:import'](line, 'moved')
    expect(refused).toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: missingModelSentence(missing, 'dashboard') }),
      offer: 'force',
    })
    expect(refused.ok ? '' : refused.error.sentence).toContain('choose Import anyway')
    expect(await stored(home)).toEqual([])

    const forced = await handlers['profiles:import'](line, 'moved', { force: true })
    if (!forced.ok) throw new Error(forced.error.sentence)
    expect(forced.value).toMatchObject({ name: 'moved', model: missing })
    expect(forced.value.notes).toContain(MISSING_MODEL_NOTE)
    expect((await stored(home)).map((p) => p.name)).toEqual(['moved'])
  })

  it('a command that is not a llama-server: one sentence, nothing stored; Import anyway stores it', async () => {
    const { home, handlers } = channel()
    const refused = await handlers['profiles:import']('ollama run qwen3:30b', 'ollama')
    expect(refused).toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: notAServerSentence('ollama', 'dashboard') }),
      offer: 'force',
    })
    expect(await stored(home)).toEqual([])
    const forced = await handlers['profiles:import']('ollama run qwen3:30b', 'ollama', { force: true })
    expect(forced.ok).toBe(true)
    expect((await stored(home)).map((p) => p.name)).toEqual(['ollama'])
  })

  it('a name already taken (any case): refused with Replace offered; Replace overwrites it and keeps its id', async () => {
    const { home, handlers } = channel()
    const first = await handlers['profiles:import'](formatCommandLine([SERVER, '-m', model('tiny-target.gguf'), '-c', '4096']), 'dup')
    if (!first.ok) throw new Error(first.error.sentence)
    const second = formatCommandLine([SERVER, '-m', model('tiny-target.gguf'), '-c', '8192'])
    const refused = await handlers['profiles:import'](second, 'DUP')
    expect(refused).toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: duplicateNameSentence('dup', first.value.id, 'dashboard') }),
      offer: 'replace',
    })
    expect(await stored(home)).toHaveLength(1)

    const replaced = await handlers['profiles:import'](second, 'DUP', { replace: true })
    if (!replaced.ok) throw new Error(replaced.error.sentence)
    expect(replaced.value.id).toBe(first.value.id)
    const profiles = (await ProfileStore.open(home)).file.profiles
    expect(profiles).toHaveLength(1)
    expect(profiles[0]?.settings.ctxSize).toBe(8192)
  })

  it("words the cause as the CLI does and names only the override in the dashboard's terms", () => {
    const cli = missingModelSentence('/m/a.gguf', 'cli')
    const dashboard = missingModelSentence('/m/a.gguf', 'dashboard')
    expect(cli).toBe('The model file /m/a.gguf does not exist: check the -m path, or add --force to store the profile marked missing.')
    expect(dashboard).toBe(
      'The model file /m/a.gguf does not exist: check the -m path, or choose Import anyway to store the profile marked missing.',
    )
    expect(duplicateNameSentence('dup', 'dup', 'dashboard')).toBe(
      'A profile named "dup" exists already (dup): choose another name, or choose Replace to overwrite it.',
    )
  })
})
