import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../../../app/contract/settings'
import { changesOf, formOf, LIST_KEYS, NUMBER_KEYS, SWITCH_KEYS } from './settings-form'

describe('the Settings view form', () => {
  it('covers every setting: numbers, switches, lists and the profile to start', () => {
    const covered = [...NUMBER_KEYS, ...SWITCH_KEYS, ...LIST_KEYS, 'startProfileOnLaunch', 'onBattery', 'onGame'].sort()
    expect(covered).toEqual(Object.keys(DEFAULT_SETTINGS).sort())
  })

  it('gives back the settings it was made from', () => {
    const settings = {
      ...DEFAULT_SETTINGS,
      port: 18112,
      switchOnRequest: false,
      heavyApps: ['obs64.exe', 'vlc'],
      modelDirs: ['/models/a, b'],
      startProfileOnLaunch: 'qwen',
      onBattery: 'small',
    }
    expect(changesOf(formOf(settings))).toEqual({ ok: true, changes: settings })
  })

  it('names the field that is not a number, in one sentence', () => {
    const form = formOf(DEFAULT_SETTINGS)
    const result = changesOf({ ...form, text: { ...form.text, port: '80 80' } })
    expect(result).toEqual({
      ok: false,
      error: 'Port: the one port clients use (the endpoint, or every profile without --port): “80 80” is not a number; type digits only.',
    })
  })

  it('splits heavy apps on commas and lines, folders on lines only', () => {
    const form = formOf(DEFAULT_SETTINGS)
    const result = changesOf({ ...form, text: { ...form.text, heavyApps: 'a.exe, b\nc', modelDirs: '/x, y\n\n/z' } })
    expect(result.ok && result.changes.heavyApps).toEqual(['a.exe', 'b', 'c'])
    expect(result.ok && result.changes.modelDirs).toEqual(['/x, y', '/z'])
  })
})
