import { fieldSpellings } from '../contract/flag-args'
import { FLAGS, PROFILE_FIELD_KEYS, type FlagType, type ProfileFieldKey } from '../contract/flag-registry'

/**
 * The typed llama-server settings a profile holds, with every spelling each
 * engine accepts (from the flag registry, app/contract/flag-registry.ts). The
 * first spelling is the one written when the profile did not come from a
 * pasted command (mainline's name where engines differ).
 */

export type FieldKind = FlagType

export interface FieldDef {
  readonly key: FieldKey
  readonly kind: FieldKind
  readonly flags: readonly string[]
}

export const FIELD_KEYS = PROFILE_FIELD_KEYS

export type FieldKey = ProfileFieldKey

function fieldKind(key: FieldKey): FieldKind {
  const def = FLAGS.find((d) => d.field === key)
  if (!def) throw new Error(`no flag fills the profile field ${key}`)
  return def.type
}

/** In the order typed fields are written when the profile has no recorded order. */
export const FIELD_DEFS: readonly FieldDef[] = FIELD_KEYS.map((key) => ({ key, kind: fieldKind(key), flags: fieldSpellings(key) }))

const BY_FLAG = new Map<string, FieldDef>(FIELD_DEFS.flatMap((d) => d.flags.map((f) => [f, d] as const)))
const BY_KEY = new Map<FieldKey, FieldDef>(FIELD_DEFS.map((d) => [d.key, d]))

export function fieldForFlag(flag: string): FieldDef | undefined {
  return BY_FLAG.get(flag)
}

export function fieldDef(key: FieldKey): FieldDef {
  const def = BY_KEY.get(key)
  if (!def) throw new Error(`unknown profile field ${key}`)
  return def
}

/**
 * The typed value for `text`, or undefined when the text would not be written
 * back identically (then the flag stays in the extra arguments, untouched).
 */
export function parseFieldValue(kind: FieldKind, text: string): string | number | undefined {
  switch (kind) {
    case 'bool':
      return undefined
    case 'string':
      return text
    case 'path':
      return text === '' ? undefined : text
    case 'int': {
      if (!/^(0|-?[1-9][0-9]*)$/.test(text)) return undefined
      const n = Number(text)
      return Number.isSafeInteger(n) ? n : undefined
    }
    case 'number': {
      if (!/^-?[0-9.]+$/.test(text)) return undefined
      const n = Number(text)
      return Number.isFinite(n) && String(n) === text ? n : undefined
    }
  }
}
