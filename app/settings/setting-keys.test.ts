import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../contract/settings'
import { SETTING_LABELS } from '../contract/settings-labels'
import { SETTING_KEYS } from './setting-text'

/**
 * The settings file's schema is the one list of settings: the defaults the renderer sees (app/contract) and the
 * labels have the same keys, so the Settings view's own test (every default has a control) covers every schema key.
 */
describe("the settings schema's keys", () => {
  it('are the keys of the defaults and of the labels, no more, no fewer', () => {
    expect([...SETTING_KEYS].sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort())
    expect([...SETTING_KEYS].sort()).toEqual(Object.keys(SETTING_LABELS).sort())
  })
})
