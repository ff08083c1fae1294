import { useEffect, useState } from 'react'
import type { AppSettings } from '../../../app/contract/settings'
import { saveSettings } from '../actions/settings-actions'
import { DiagnosticsSection } from './DiagnosticsSection'
import { EnginesSection } from './EnginesSection'
import { useProfileStore } from '../stores/profile-store'
import { useSettingsStore } from '../stores/settings-store'

interface Form {
  readonly vramHeadroomMiB: string
  readonly gpuTemperatureWarnC: string
  readonly pollIntervalMs: string
  readonly heavyApps: string
  readonly modelDirs: string
  readonly notifications: boolean
  readonly startWithSystem: boolean
  readonly hardwareAcceleration: boolean
  readonly engineUpdateCheck: boolean
  readonly startProfileOnLaunch: string
}

function formOf(s: AppSettings): Form {
  return {
    vramHeadroomMiB: String(s.vramHeadroomMiB),
    gpuTemperatureWarnC: String(s.gpuTemperatureWarnC),
    pollIntervalMs: String(s.pollIntervalMs),
    heavyApps: s.heavyApps.join(', '),
    modelDirs: s.modelDirs.join('\n'),
    notifications: s.notifications,
    startWithSystem: s.startWithSystem,
    hardwareAcceleration: s.hardwareAcceleration,
    engineUpdateCheck: s.engineUpdateCheck,
    startProfileOnLaunch: s.startProfileOnLaunch ?? '',
  }
}

const NUMBERS: readonly ['vramHeadroomMiB' | 'gpuTemperatureWarnC' | 'pollIntervalMs', string][] = [
  ['vramHeadroomMiB', 'VRAM headroom (MiB): warn when free VRAM is under this'],
  ['gpuTemperatureWarnC', 'GPU temperature warning (°C)'],
  ['pollIntervalMs', 'Polling interval (ms)'],
]

export function SettingsView(): React.JSX.Element {
  const settings = useSettingsStore((s) => s.settings)
  const profiles = useProfileStore((s) => s.summary?.profiles ?? null)
  const [form, setForm] = useState<Form | null>(null)
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null)
  useEffect(() => {
    if (settings) setForm(formOf(settings))
  }, [settings])
  if (!form) return <p className="note">Loading settings…</p>
  const set = (patch: Partial<Form>): void => setForm({ ...form, ...patch })

  const save = async (e: React.FormEvent): Promise<void> => {
    e.preventDefault()
    const changes: Record<string, unknown> = {}
    for (const [key, label] of NUMBERS) {
      const n = Number(form[key])
      if (form[key].trim() === '' || !Number.isFinite(n)) return setMessage({ ok: false, text: `${label}: “${form[key]}” is not a number` })
      changes[key] = n
    }
    changes.heavyApps = form.heavyApps.split(/[,\n]/).map((s) => s.trim()).filter(Boolean)
    // One folder per line (paths may contain commas).
    changes.modelDirs = form.modelDirs.split('\n').map((s) => s.trim()).filter(Boolean)
    changes.notifications = form.notifications
    changes.startWithSystem = form.startWithSystem
    changes.hardwareAcceleration = form.hardwareAcceleration
    changes.engineUpdateCheck = form.engineUpdateCheck
    changes.startProfileOnLaunch = form.startProfileOnLaunch || null
    const r = await saveSettings(changes as Partial<AppSettings>)
    setMessage(r.ok ? { ok: true, text: 'Saved.' } : { ok: false, text: r.error })
  }

  return (
    <>
      <form className="settings-view" onSubmit={(e) => void save(e)} aria-label="Settings">
        {NUMBERS.map(([key, label]) => (
          <label key={key}>
            {label}
            <input value={form[key]} inputMode="numeric" onChange={(e) => set({ [key]: e.target.value })} data-testid={`setting-${key}`} />
          </label>
        ))}
        <label>
          Heavy apps (comma-separated process names)
          <textarea value={form.heavyApps} onChange={(e) => set({ heavyApps: e.target.value })} rows={2} />
        </label>
        <label>
          Model folders (one per line): “Find llama-server and models” also looks here
          <textarea value={form.modelDirs} onChange={(e) => set({ modelDirs: e.target.value })} rows={3} spellCheck={false} placeholder="/home/me/models" data-testid="setting-modelDirs" />
        </label>
        <label>
          Start a profile when Llama Tray starts
          <select value={form.startProfileOnLaunch} onChange={(e) => set({ startProfileOnLaunch: e.target.value })}>
            <option value="">none</option>
            {profiles?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={form.notifications} onChange={(e) => set({ notifications: e.target.checked })} />
          Notifications
        </label>
        <label className="check">
          <input type="checkbox" checked={form.startWithSystem} onChange={(e) => set({ startWithSystem: e.target.checked })} />
          Start with the system
        </label>
        <label className="check">
          <input type="checkbox" checked={form.hardwareAcceleration} onChange={(e) => set({ hardwareAcceleration: e.target.checked })} />
          Hardware acceleration for this window (takes VRAM from the model; applies after a restart)
        </label>
        <label className="check">
          <input type="checkbox" checked={form.engineUpdateCheck} onChange={(e) => set({ engineUpdateCheck: e.target.checked })} data-testid="setting-engineUpdateCheck" />
          Check once a day whether a newer llama.cpp is out (a notice only: nothing is downloaded)
        </label>
        <div className="row">
          <button type="submit" className="primary" data-testid="settings-save">
            Save
          </button>
        </div>
        {message && (
          <p className={message.ok ? 'fix-ok' : 'fix-error'} role="status" data-testid="settings-message">
            {message.text}
          </p>
        )}
      </form>
      <EnginesSection />
      <DiagnosticsSection />
    </>
  )
}
