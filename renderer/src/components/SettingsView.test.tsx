import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { BUILT_IN_HEAVY_APPS } from '../../../app/contract/heavy-apps'
import { DEFAULT_SETTINGS } from '../../../app/contract/settings'
import { formOf } from '../lib/settings-form'
import { SettingsControls } from './SettingsView'

describe("the Settings view's controls", () => {
  it('render a control for every setting (app/settings/setting-keys.test.ts ties these keys to the schema)', () => {
    const form = formOf({ ...DEFAULT_SETTINGS, heavyApps: ['obs64.exe'] })
    const html = renderToStaticMarkup(<SettingsControls form={form} onChange={() => {}} profiles={[{ id: 'qwen', name: 'Qwen' }]} />)
    const missing = Object.keys(DEFAULT_SETTINGS).filter((key) => !html.includes(`data-testid="setting-${key}"`))
    expect(missing).toEqual([])
    // The user's heavy apps are editable, and the built-in list is in view beside them.
    expect(html).toMatch(/<textarea[^>]*data-testid="setting-heavyApps"[^>]*>obs64.exe<\/textarea>/)
    for (const app of BUILT_IN_HEAVY_APPS) expect(html).toContain(app.name)
  })
})
