import { problem } from '../../../app/contract/problem'
import { failedOutcome, type Outcome } from '../lib/outcome'
import { OutcomeView } from './OutcomeView'
import { useEffect, useState } from 'react'
import { BUILT_IN_HEAVY_APPS } from '../../../app/contract/heavy-apps'
import { SETTING_LABELS } from '../../../app/contract/settings-labels'
import { ON_GAME_SETTINGS } from '../../../app/contract/game'
import { saveSettings } from '../actions/settings-actions'
import {
  APP_LISTS,
  APP_NUMBERS,
  APP_SWITCHES,
  changesOf,
  formOf,
  GAME_NUMBERS,
  SERVER_LISTS,
  SERVER_NUMBERS,
  SERVER_SWITCHES,
  WARNING_NUMBERS,
} from '../lib/settings-form'
import type { ListKey, NumberKey, SettingsForm, SwitchKey } from '../lib/settings-form'
import { DiagnosticsSection } from './DiagnosticsSection'
import { EnginesSection } from './EnginesSection'
import { useProfileStore } from '../stores/profile-store'
import { useSettingsStore } from '../stores/settings-store'

/** Words for a few fields where the shared label needs a hint the view can show. */
const PLACEHOLDERS: Partial<Record<ListKey, string>> = {
  endpointAllowedOrigins: 'https://chat.example',
  endpointAllowedHosts: 'llm.home.arpa',
  modelDirs: '/home/me/models',
  heavyApps: 'obs64.exe',
}

interface FieldProps {
  readonly form: SettingsForm
  readonly onChange: (form: SettingsForm) => void
}

function NumberFields({ form, onChange, keys }: FieldProps & { keys: readonly NumberKey[] }): React.JSX.Element {
  return (
    <>
      {keys.map((key) => (
        <label key={key}>
          {SETTING_LABELS[key]}
          <input
            value={form.text[key]}
            inputMode="numeric"
            onChange={(e) => onChange({ ...form, text: { ...form.text, [key]: e.target.value } })}
            data-testid={`setting-${key}`}
          />
        </label>
      ))}
    </>
  )
}

function SwitchFields({ form, onChange, keys }: FieldProps & { keys: readonly SwitchKey[] }): React.JSX.Element {
  return (
    <>
      {keys.map((key) => (
        <label key={key} className="check">
          <input
            type="checkbox"
            checked={form.switches[key]}
            onChange={(e) => onChange({ ...form, switches: { ...form.switches, [key]: e.target.checked } })}
            data-testid={`setting-${key}`}
          />
          {SETTING_LABELS[key]}
        </label>
      ))}
    </>
  )
}

function ListFields({ form, onChange, keys }: FieldProps & { keys: readonly ListKey[] }): React.JSX.Element {
  return (
    <>
      {keys.map((key) => (
        <label key={key}>
          {SETTING_LABELS[key]} (one per line)
          <textarea
            value={form.text[key]}
            onChange={(e) => onChange({ ...form, text: { ...form.text, [key]: e.target.value } })}
            rows={2}
            spellCheck={false}
            placeholder={PLACEHOLDERS[key]}
            data-testid={`setting-${key}`}
          />
        </label>
      ))}
    </>
  )
}

/** Every setting's control, in its group: what the Settings view's test checks against the settings' keys. */
export function SettingsControls({
  form,
  onChange,
  profiles,
}: FieldProps & { profiles: readonly { readonly id: string; readonly name: string }[] }): React.JSX.Element {
  const fields = { form, onChange }
  return (
    <>
      <h3>Server and endpoint</h3>
      <NumberFields {...fields} keys={SERVER_NUMBERS.slice(0, 1)} />
      <SwitchFields {...fields} keys={SERVER_SWITCHES} />
      <NumberFields {...fields} keys={SERVER_NUMBERS.slice(1)} />
      <ListFields {...fields} keys={SERVER_LISTS} />
      <h3>Warnings</h3>
      <NumberFields {...fields} keys={WARNING_NUMBERS} />
      <ListFields {...fields} keys={['heavyApps']} />
      <p className="note" data-testid="builtin-heavy-apps">
        Built in (always counted): {BUILT_IN_HEAVY_APPS.map((a) => a.name).join(', ')}.
      </p>
      <h3>App</h3>
      <NumberFields {...fields} keys={APP_NUMBERS} />
      <ListFields {...fields} keys={APP_LISTS} />
      <label>
        {SETTING_LABELS.startProfileOnLaunch}
        <select
          value={form.startProfileOnLaunch}
          onChange={(e) => onChange({ ...form, startProfileOnLaunch: e.target.value })}
          data-testid="setting-startProfileOnLaunch"
        >
          <option value="">none</option>
          {profiles.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {SETTING_LABELS.onBattery}
        <select value={form.onBattery} onChange={(e) => onChange({ ...form, onBattery: e.target.value })} data-testid="setting-onBattery">
          <option value="keep">keep</option>
          <option value="stop">stop</option>
          {profiles.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        {SETTING_LABELS.onGame}
        <select
          value={form.onGame}
          onChange={(e) => onChange({ ...form, onGame: e.target.value as SettingsForm['onGame'] })}
          data-testid="setting-onGame"
        >
          {ON_GAME_SETTINGS.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </label>
      <NumberFields {...fields} keys={GAME_NUMBERS} />
      <SwitchFields {...fields} keys={APP_SWITCHES} />
    </>
  )
}

export function SettingsView(): React.JSX.Element {
  const settings = useSettingsStore((s) => s.settings)
  const profiles = useProfileStore((s) => s.summary?.profiles ?? null)
  const [form, setForm] = useState<SettingsForm | null>(null)
  const [message, setMessage] = useState<Outcome | null>(null)
  useEffect(() => {
    if (settings) setForm(formOf(settings))
  }, [settings])
  if (!form) return <p className="note">Loading settings…</p>

  const save = async (e: React.FormEvent): Promise<void> => {
    e.preventDefault()
    const checked = changesOf(form)
    if (!checked.ok) return setMessage(failedOutcome(problem('input', checked.error)))
    const r = await saveSettings(checked.changes)
    setMessage(r.ok ? { ok: true, text: 'Saved.' } : failedOutcome(r.error))
  }

  return (
    <>
      <form className="settings-view" onSubmit={(e) => void save(e)} aria-label="Settings">
        <SettingsControls form={form} onChange={setForm} profiles={profiles ?? []} />
        <div className="row">
          <button type="submit" className="primary" data-testid="settings-save">
            Save
          </button>
        </div>
        {message && <OutcomeView outcome={message} testId="settings-message" />}
      </form>
      <EnginesSection />
      <DiagnosticsSection />
    </>
  )
}
