import type { ProfileSettingsDocument } from '../../../app/contract/profile'

export type FieldKind = 'text' | 'number' | 'boolean'

export interface SettingField {
  readonly key: keyof ProfileSettingsDocument
  readonly label: string
  readonly flag: string
  readonly kind: FieldKind
  readonly placeholder?: string
}

/** The typed fields of the editor, in the order a user tunes them. */
export const SETTING_FIELDS: readonly SettingField[] = [
  { key: 'gpuLayers', label: 'GPU layers', flag: '-ngl', kind: 'text', placeholder: 'all / 99 / auto' },
  { key: 'nCpuMoe', label: 'Experts on CPU (layers)', flag: '--n-cpu-moe', kind: 'number' },
  { key: 'cpuMoe', label: 'All experts on CPU', flag: '--cpu-moe', kind: 'boolean' },
  { key: 'ctxSize', label: 'Context size', flag: '-c', kind: 'number', placeholder: '4096' },
  { key: 'parallel', label: 'Parallel slots', flag: '-np', kind: 'number' },
  { key: 'cacheTypeK', label: 'KV cache type K', flag: '-ctk', kind: 'text', placeholder: 'f16 / q8_0' },
  { key: 'cacheTypeV', label: 'KV cache type V', flag: '-ctv', kind: 'text', placeholder: 'f16 / q8_0' },
  { key: 'flashAttn', label: 'Flash attention', flag: '-fa', kind: 'text', placeholder: 'on / off / auto' },
  { key: 'loadMode', label: 'Load mode', flag: '-lm', kind: 'text', placeholder: 'none' },
  { key: 'noMmap', label: 'No mmap', flag: '--no-mmap', kind: 'boolean' },
  { key: 'mlock', label: 'mlock', flag: '--mlock', kind: 'boolean' },
  { key: 'draftGpuLayers', label: 'Draft GPU layers', flag: '-ngld', kind: 'text' },
  { key: 'specType', label: 'Speculative type', flag: '--spec-type', kind: 'text', placeholder: 'draft-simple' },
  { key: 'draftMax', label: 'Draft max', flag: '--spec-draft-n-max', kind: 'number' },
  { key: 'draftMin', label: 'Draft min', flag: '--spec-draft-n-min', kind: 'number' },
  { key: 'reasoning', label: 'Reasoning', flag: '--reasoning', kind: 'text' },
  { key: 'reasoningBudget', label: 'Reasoning budget', flag: '--reasoning-budget', kind: 'number' },
  { key: 'temp', label: 'Temperature', flag: '--temp', kind: 'number' },
  { key: 'topK', label: 'Top K', flag: '--top-k', kind: 'number' },
  { key: 'topP', label: 'Top P', flag: '--top-p', kind: 'number' },
  { key: 'minP', label: 'Min P', flag: '--min-p', kind: 'number' },
  { key: 'presencePenalty', label: 'Presence penalty', flag: '--presence-penalty', kind: 'number' },
  { key: 'host', label: 'Host', flag: '--host', kind: 'text', placeholder: '127.0.0.1' },
  { key: 'port', label: 'Port', flag: '--port', kind: 'number', placeholder: 'free port' },
  { key: 'apiKeyFile', label: 'API key file', flag: '--api-key-file', kind: 'text' },
]

/** What the form holds: strings for text and number inputs, booleans for checkboxes. */
export type FormValues = Record<string, string | boolean>

export function settingsToForm(settings: ProfileSettingsDocument): FormValues {
  const form: FormValues = {}
  for (const f of SETTING_FIELDS) {
    const v = settings[f.key]
    form[f.key] = f.kind === 'boolean' ? v === true : v === undefined ? '' : String(v)
  }
  return form
}

/**
 * The form back to settings: an empty field means "unset" (the engine's
 * default); settings the form does not show (the API key) are kept.
 * Returns the first unreadable number as an error instead of guessing.
 */
export function formToSettings(form: FormValues, base: ProfileSettingsDocument): { settings: ProfileSettingsDocument } | { error: string } {
  const out: Record<string, unknown> = { ...base }
  for (const f of SETTING_FIELDS) {
    const v = form[f.key]
    delete out[f.key]
    if (f.kind === 'boolean') {
      if (v === true) out[f.key] = true
      continue
    }
    const text = typeof v === 'string' ? v.trim() : ''
    if (text === '') continue
    if (f.kind === 'number') {
      const n = Number(text)
      if (!Number.isFinite(n)) return { error: `${f.label} (${f.flag}) must be a number, not “${text}”` }
      out[f.key] = n
    } else out[f.key] = text
  }
  return { settings: out as ProfileSettingsDocument }
}
