import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importCommand } from './import-command'
import { profileSummary } from './profile-summary'
import { parseProfilesText, profilesCodec, ProfileStore, ProfileStoreError } from './store'

const profile = (id: string) => ({ ...importCommand(`llama-server -m ${id}.gguf`, { name: id }), id })

describe('the pinned field of a profile', () => {
  it('goes through the codec both ways, and a profile without it reads as not pinned', () => {
    const file = {
      version: 1 as const,
      activeProfileId: 'a',
      previousProfileId: null,
      profiles: [profile('a'), { ...profile('b'), pinned: true }],
    }
    const decoded = profilesCodec.decode(JSON.parse(JSON.stringify(profilesCodec.encode(file))))
    expect(decoded.kind).toBe('ok')
    const profiles = decoded.kind === 'ok' ? decoded.value.profiles : []
    expect(profiles.map((p) => p.pinned)).toEqual([undefined, true])
    expect(profiles.map((p) => profileSummary(p, 'a').pinned)).toEqual([false, true])
    expect(profilesCodec.decode({ ...file, profiles: [{ ...profile('c'), pinned: 'yes' }] }).kind).toBe('invalid')
  })

  it('is stored by setPinned in profiles.json and removed by unpinning; an unknown id is refused', async () => {
    const home = await mkdtemp(join(tmpdir(), 'llama-tray-pinned-'))
    try {
      const store = await ProfileStore.open(home)
      await store.upsert(profile('a'))
      await store.upsert(profile('b'))
      await store.setPinned('b', true)
      const onDisk = parseProfilesText(await readFile(join(home, 'profiles.json'), 'utf8'))
      expect(onDisk.kind === 'ok' && onDisk.file.profiles.map((p) => p.pinned)).toEqual([undefined, true])
      await store.setPinned('b', false)
      expect((await readFile(join(home, 'profiles.json'), 'utf8')).includes('pinned')).toBe(false)
      await expect(store.setPinned('zz', true)).rejects.toThrow(ProfileStoreError)
    } finally {
      await rm(home, { recursive: true, force: true })
    }
  })
})
