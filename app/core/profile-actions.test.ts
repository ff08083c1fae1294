import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { ProfileStoreError } from '../profiles/store'
import { profileActions } from './profile-actions'
import { profileCommands } from './profile-commands'

let scratch: string
let bin: string
let n = 0
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'llama-tray-profile-actions-'))
  bin = llamaServerBin()
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('profileActions, what the CLI and the dashboard both run', () => {
  it('imports, activates, exports and removes through one store the dashboard channels read, telling each change', async () => {
    const home = join(scratch, `home-${n++}`)
    const changes: string[][] = []
    const actions = profileActions({ home, onChanged: async (store) => void changes.push(store.file.profiles.map((p) => p.id)) })
    const channels = profileCommands({ home, chooseFile: async () => null, onChanged: async () => {} })

    const imported = await actions.importProfile({ argv: [bin, '-m', model('tiny-target.gguf'), '-c', '2048'] }, { name: 'Tiny' })
    expect(imported.replaced).toBe(false)
    expect((await actions.setActive('tiny')).id).toBe('tiny')
    const listed = await channels['profiles:list']()
    expect(listed.profiles.map((p) => [p.id, p.active])).toEqual([['tiny', true]])
    const exported = await channels['profiles:export']('tiny', 'bash')
    expect(exported.ok && exported.value).toBe((await actions.exportProfile('Tiny', 'bash')).command)

    await expect(actions.importProfile({ text: `${bin} -m ${model('tiny-target.gguf')}` }, { name: 'tiny' })).rejects.toThrow(
      /exists already/,
    )
    const removed = await actions.remove('TINY')
    expect(removed.id).toBe('tiny')
    expect(changes).toEqual([['tiny'], ['tiny'], []])
    expect((await channels['profiles:list']()).profiles).toEqual([])
  }, 60_000)

  it('refuses an unknown profile with one sentence, the same from the channels', async () => {
    const home = join(scratch, `home-${n++}`)
    const actions = profileActions({ home })
    const refusal = await actions.get('ghost').catch((err: unknown) => err)
    expect(refusal).toBeInstanceOf(ProfileStoreError)
    expect((refusal as Error).message).toMatch(/^No profile is called "ghost": .*\.$/)
    const channels = profileCommands({ home, chooseFile: async () => null, onChanged: async () => {} })
    expect(await channels['profiles:delete']('ghost')).toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: (refusal as Error).message }),
    })
  })
})
