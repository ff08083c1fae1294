import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { importArgv, ImportError } from './import-command'
import { ProfileEditSchema } from './profile-edit-schema'
import { ProfileStore, ProfileStoreError } from './store'

// Issue #42 (Low): names accepted U+202E (right-to-left override) and U+200B, and "Café" in NFC and NFD became two
// profiles that look the same.
const home = mkdtempSync(join(tmpdir(), 'llama-tray-names-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

const NFC = 'Caf\u00e9'
const NFD = 'Cafe\u0301'

describe('profile names: NFC, no direction controls, no invisible characters', () => {
  it.each([
    ['U+202E (right-to-left override)', 'qwen\u202eexe.fdp', /text-direction control/],
    ['U+202A (left-to-right embedding)', 'qwen\u202a', /text-direction control/],
    ['U+2066 (left-to-right isolate)', '\u2066qwen', /text-direction control/],
    ['U+2069 (pop directional isolate)', 'qwen\u2069', /text-direction control/],
    ['U+200B (zero-width space)', 'qw\u200ben', /zero-width/],
    ['U+200D (zero-width joiner)', 'qw\u200den', /zero-width/],
    ['U+FEFF (byte-order mark)', '\ufeffqwen', /zero-width/],
  ])('a name with %s is refused in one sentence, at import and at an edit', (_what, name, message) => {
    let refused: unknown = null
    try {
      importArgv(['llama-server', '-m', 'a.gguf'], { name })
    } catch (err) {
      refused = err
    }
    expect(refused).toBeInstanceOf(ImportError)
    expect((refused as Error).message).toMatch(message)
    const edit = ProfileEditSchema.safeParse({ name })
    expect(edit.success).toBe(false)
    expect(edit.error?.issues[0]?.message).toMatch(message)
  })

  it('a name is stored in NFC: "Café" typed decomposed is the same profile as "Café" precomposed', async () => {
    expect(importArgv(['llama-server', '-m', 'a.gguf'], { name: NFD }).name).toBe(NFC)
    expect(ProfileEditSchema.parse({ name: NFD }).name).toBe(NFC)
    const store = await ProfileStore.open(home)
    await store.addNamed(importArgv(['llama-server', '-m', 'a.gguf'], { name: NFC }))
    // A profile imported before names were normalised, then its look-alike: one name, so the second is a duplicate.
    const older = { ...importArgv(['llama-server', '-m', 'b.gguf'], { name: 'x' }), name: 'Th\u00e9' }
    await store.addNamed(older)
    await expect(store.addNamed(importArgv(['llama-server', '-m', 'c.gguf'], { name: 'The\u0301' }))).rejects.toBeInstanceOf(
      ProfileStoreError,
    )
    await expect(store.addNamed(importArgv(['llama-server', '-m', 'd.gguf'], { name: NFD }))).rejects.toThrow(/exists already/)
  })

  it("a name made from a model file's name leaves the invisible and direction characters out", () => {
    expect(importArgv(['llama-server', '-m', '/m/Caf\u0065\u0301\u200b-\u202eq4.gguf']).name).toBe(`${NFC}-q4`)
  })
})
