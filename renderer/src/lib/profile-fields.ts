import { type BinaryFlags, fieldSpellingFor, noMmapSpelling } from '../../../app/contract/binary-flags'
import { fieldSpellings } from '../../../app/contract/flag-args'
import type { ProfileSettingsDocument } from '../../../app/contract/profile'

export type FieldKind = 'text' | 'number' | 'boolean'

/** The editor's sections, in the order a user tunes a launch. */
export type SectionId = 'model' | 'offload' | 'context' | 'speculative' | 'sampling' | 'network'

export const SECTIONS: readonly { readonly id: SectionId; readonly title: string }[] = [
  { id: 'model', title: 'Model and draft' },
  { id: 'offload', title: 'GPU offload and fit' },
  { id: 'context', title: 'Context and KV cache' },
  { id: 'speculative', title: 'Speculative decoding' },
  { id: 'sampling', title: 'Sampling' },
  { id: 'network', title: 'Network' },
]

export interface SettingField {
  readonly key: keyof ProfileSettingsDocument
  /** Plain language: what it does, not the flag. */
  readonly label: string
  /** The llama-server flag, shown as secondary text: the spelling a new profile writes (from the flag registry). */
  readonly flag: string
  readonly kind: FieldKind
  readonly section: SectionId
  /** Shown first in its section; the rest under "More". */
  readonly common: boolean
  readonly placeholder?: string
}

// "No memory map" is -lm none on builds with --load-mode and --no-mmap on older ones and the forks: the checkbox writes the
// profile binary's spelling (the core's gate does too, for a binary not known yet), and reads either.
const NO_MMAP_SHOWN = { 'no-mmap': '--no-mmap', 'load-mode': '-lm none', either: '-lm none (--no-mmap on older builds)' } as const
const withFlag = (f: Omit<SettingField, 'flag'>): SettingField => ({
  ...f,
  flag: f.key === 'noMmap' ? NO_MMAP_SHOWN.either : (fieldSpellings(f.key)[0] as string),
})

/** Load modes that do not memory-map the weights (what the "no memory map" checkbox means in -lm's words). */
const NO_MMAP_LOAD_MODES = new Set(['none', 'mlock'])

/** The typed fields of the editor, by section, common ones first. */
export const SETTING_FIELDS: readonly SettingField[] = (
  [
    { key: 'draftGpuLayers', label: 'Draft layers on the GPU', kind: 'text', section: 'model', common: false, placeholder: 'all / 99' },
    { key: 'gpuLayers', label: 'Layers on the GPU', kind: 'text', section: 'offload', common: true, placeholder: 'all / 99 / auto' },
    { key: 'nCpuMoe', label: 'Layers whose experts run on the CPU', kind: 'number', section: 'offload', common: true },
    { key: 'cpuMoe', label: 'Run all experts on the CPU', kind: 'boolean', section: 'offload', common: false },
    { key: 'noMmap', label: 'Load the weights into RAM (no memory map)', kind: 'boolean', section: 'offload', common: true },
    { key: 'loadMode', label: 'Load mode', kind: 'text', section: 'offload', common: false, placeholder: 'none' },
    { key: 'mlock', label: 'Lock the weights in RAM', kind: 'boolean', section: 'offload', common: false },
    { key: 'ctxSize', label: 'Context length (tokens)', kind: 'number', section: 'context', common: true, placeholder: '4096' },
    { key: 'parallel', label: 'Parallel requests (slots)', kind: 'number', section: 'context', common: true },
    { key: 'cacheTypeK', label: 'KV cache precision, keys', kind: 'text', section: 'context', common: false, placeholder: 'f16 / q8_0' },
    { key: 'cacheTypeV', label: 'KV cache precision, values', kind: 'text', section: 'context', common: false, placeholder: 'f16 / q8_0' },
    { key: 'flashAttn', label: 'Flash attention', kind: 'text', section: 'context', common: false, placeholder: 'on / off / auto' },
    {
      key: 'specType',
      label: 'Speculative decoding method',
      kind: 'text',
      section: 'speculative',
      common: true,
      placeholder: 'draft-simple',
    },
    { key: 'draftMax', label: 'Most tokens drafted per step', kind: 'number', section: 'speculative', common: false },
    { key: 'draftMin', label: 'Fewest tokens drafted per step', kind: 'number', section: 'speculative', common: false },
    { key: 'temp', label: 'Temperature', kind: 'number', section: 'sampling', common: true },
    { key: 'reasoning', label: 'Thinking (reasoning)', kind: 'text', section: 'sampling', common: true, placeholder: 'on / off / auto' },
    { key: 'topK', label: 'Keep the K likeliest tokens', kind: 'number', section: 'sampling', common: false },
    { key: 'topP', label: 'Keep tokens up to probability P', kind: 'number', section: 'sampling', common: false },
    { key: 'minP', label: 'Drop tokens under probability', kind: 'number', section: 'sampling', common: false },
    { key: 'presencePenalty', label: 'Penalty for repeated topics', kind: 'number', section: 'sampling', common: false },
    { key: 'reasoningBudget', label: 'Thinking budget (tokens)', kind: 'number', section: 'sampling', common: false },
    { key: 'host', label: 'Listen on address', kind: 'text', section: 'network', common: true, placeholder: '127.0.0.1' },
    { key: 'port', label: 'Port', kind: 'number', section: 'network', common: true, placeholder: 'free port' },
    { key: 'apiKeyFile', label: 'API key file', kind: 'text', section: 'network', common: false },
  ] as const
).map(withFlag)

/**
 * The fields this binary takes, each with the flag in its spelling (its --help, from the profile's document); every field when
 * the binary is not known. A setting the binary has no flag for is not offered.
 */
export function fieldsFor(binary: BinaryFlags | null): readonly SettingField[] {
  return SETTING_FIELDS.flatMap((f): SettingField[] => {
    if (f.key === 'noMmap') {
      const spelling = noMmapSpelling(binary)
      return spelling === null ? [] : [{ ...f, flag: NO_MMAP_SHOWN[spelling] }]
    }
    const flag = fieldSpellingFor(f.key, binary)
    return flag === null ? [] : [{ ...f, flag }]
  })
}

/** A section's fields for this binary: the common ones, and the rest that go under "More". */
export function sectionFields(
  section: SectionId,
  binary: BinaryFlags | null = null,
): { readonly common: readonly SettingField[]; readonly more: readonly SettingField[] } {
  const fields = fieldsFor(binary).filter((f) => f.section === section)
  return { common: fields.filter((f) => f.common), more: fields.filter((f) => !f.common) }
}

/** What the form holds: strings for text and number inputs, booleans for checkboxes. */
export type FormValues = Record<string, string | boolean>

export function settingsToForm(settings: ProfileSettingsDocument): FormValues {
  const form: FormValues = {}
  for (const f of SETTING_FIELDS) {
    const v = settings[f.key]
    form[f.key] = f.kind === 'boolean' ? v === true : v === undefined ? '' : String(v)
  }
  if (typeof settings.loadMode === 'string' && NO_MMAP_LOAD_MODES.has(settings.loadMode)) form.noMmap = true
  return form
}

/**
 * The form back to settings: an empty field means "unset" (the engine's
 * default); settings the form does not show (the API key) are kept.
 * Returns the first unreadable number as an error instead of guessing.
 */
export function formToSettings(
  form: FormValues,
  base: ProfileSettingsDocument,
  binary: BinaryFlags | null = null,
): { settings: ProfileSettingsDocument } | { error: string } {
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
  // The checkbox and -lm say one thing: ticked with a no-mmap load mode needs no --no-mmap; unticked clears -lm none.
  const loadMode = typeof out.loadMode === 'string' ? out.loadMode : null
  if (loadMode !== null && NO_MMAP_LOAD_MODES.has(loadMode)) {
    if (form.noMmap === true) delete out.noMmap
    else if (loadMode === 'none') delete out.loadMode
  }
  return { settings: inBinarySpelling(out, binary) }
}

/** A ticked RAM checkbox in the binary's words: -lm none where it has no --no-mmap, --no-mmap where it has no -lm. */
function inBinarySpelling(out: Record<string, unknown>, binary: BinaryFlags | null): ProfileSettingsDocument {
  const spelling = noMmapSpelling(binary)
  if (spelling === 'load-mode' && out.noMmap === true) {
    delete out.noMmap
    out.loadMode = 'none'
  } else if (spelling === 'no-mmap' && out.loadMode === 'none' && fieldSpellingFor('loadMode', binary) === null) {
    delete out.loadMode
    out.noMmap = true
  }
  return out as ProfileSettingsDocument
}
