import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../contract/settings'
import { SettingsStore } from './settings-store'

let scratch: string
let count = 0
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'llama-tray-settings-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})
const freshHome = (): string => join(scratch, `home-${count++}`)

describe('SettingsStore', () => {
  it('keeps every good setting of a file with one bad field, and names the bad one', async () => {
    const home = freshHome()
    const store0 = await SettingsStore.open(home)
    await store0.update({ port: 9090, notifications: false, modelDirs: ['/models'] })
    const text = JSON.stringify({ version: 1, port: 9090, notifications: false, modelDirs: ['/models'], pollIntervalMs: 'fast' })
    await writeFile(join(home, 'settings.json'), text)
    const store = await SettingsStore.open(home)
    expect(store.settings).toEqual({ ...DEFAULT_SETTINGS, port: 9090, notifications: false, modelDirs: ['/models'] })
    expect(store.messages).toHaveLength(1)
    expect(store.messages[0]).toMatch(
      new RegExp(
        String.raw`^The settings file .*settings\.json: the setting "pollIntervalMs" is "fast", which is not` +
          String.raw` valid \(.*\), so its default 1000 is used; set it again in Settings\.$`,
      ),
    )
    // The file is not set aside; the next save keeps it (bad field and all) as the backup.
    expect((await readdir(home)).filter((n) => n.includes('corrupt'))).toEqual([])
    await store.update({ pollIntervalMs: 2000 })
    expect(await readFile(join(home, 'settings.json.bak'), 'utf8')).toBe(text)
    expect(JSON.parse(await readFile(join(home, 'settings.json'), 'utf8'))).toEqual({
      ...DEFAULT_SETTINGS,
      version: 1,
      port: 9090,
      notifications: false,
      modelDirs: ['/models'],
      pollIntervalMs: 2000,
    })
  })

  it('names a setting it does not know and keeps the others', async () => {
    const home = freshHome()
    await mkdir(home, { recursive: true })
    await writeFile(join(home, 'settings.json'), JSON.stringify({ prot: 9000, port: 9001 }))
    const store = await SettingsStore.open(home)
    expect(store.settings.port).toBe(9001)
    expect(store.messages).toEqual([
      `The settings file ${join(home, 'settings.json')}: the setting "prot" is not one Llama Tray knows, so it is ignored.`,
    ])
  })

  it('moves an unreadable file aside, restores the backup and says so', async () => {
    const home = freshHome()
    const store = await SettingsStore.open(home)
    await store.update({ port: 9101 })
    await store.update({ port: 9102 })
    await writeFile(join(home, 'settings.json'), '{"port": 91')
    const reopened = await SettingsStore.open(home)
    expect(reopened.settings.port).toBe(9101)
    const aside = (await readdir(home)).find((n) => n.startsWith('settings.json.corrupt-'))
    expect(aside).toBeDefined()
    expect(await readFile(join(home, aside as string), 'utf8')).toBe('{"port": 91')
    expect(reopened.messages[0]).toMatch(
      /^The settings file .* could not be read \(not valid JSON .*\); it was moved to .*settings\.json\.corrupt-.*\.$/,
    )
    expect(reopened.messages[1]).toBe(`The settings file was restored from its backup ${join(home, 'settings.json.bak')}.`)
  })

  it('refuses an invalid change with the field named and saves nothing', async () => {
    const home = freshHome()
    const store = await SettingsStore.open(home)
    expect(await store.update({ port: 70_000 })).toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: 'The port setting takes a whole number from 1 to 65535, like 8080; "70000" is not one.' }),
    })
    expect(await store.update({ heavyApps: ['ok', ''] })).toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: expect.stringMatching(/^The heavyApps setting takes a list of .*; "" is not one\.$/) }),
    })
    expect(await store.update({ colour: 'red' })).toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: 'There is no setting "colour"; nothing was saved.' }),
    })
    expect(await store.update([1])).toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: 'A settings change must be an object of settings by name; nothing was saved.' }),
    })
    expect((await readdir(home).catch((): string[] => [])).includes('settings.json')).toBe(false)
  })
})
