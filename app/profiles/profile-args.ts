import { looksLikeFlag } from '../contract/flag-args'
import { FIELD_DEFS, fieldDef, fieldForFlag, parseFieldValue, type FieldDef, type FieldKey } from './flag-fields'
import type { ArgSlot, Profile, ProfileSettings } from './schema'

/** The argument-bearing part of a profile (no id, name, binary, env or notes). */
export interface ProfileArgs {
  readonly model: string
  readonly draftModel?: string
  readonly settings: ProfileSettings
  readonly extraArgs: readonly string[]
  readonly argOrder?: readonly ArgSlot[]
}

type FieldValue = string | number | boolean | undefined

export function getField(p: ProfileArgs, key: FieldKey): FieldValue {
  if (key === 'model') return p.model === '' ? undefined : p.model
  if (key === 'draftModel') return p.draftModel
  return p.settings[key]
}

/**
 * Splits llama-server arguments (without the binary) into typed settings and
 * untouched extra arguments, recording the order so renderArgs gives back
 * exactly the same vector. A flag whose value would not be written back
 * identically, or that repeats, stays an extra argument.
 */
export function parseArgs(args: readonly string[]): ProfileArgs {
  let model = ''
  let draftModel: string | undefined
  const settings: Record<string, string | number | boolean> = {}
  const extraArgs: string[] = []
  const argOrder: ArgSlot[] = []
  const seen = new Set<FieldKey>()
  const set = (def: FieldDef, value: string | number | boolean, flag: string, joined: boolean): void => {
    if (def.key === 'model') model = value as string
    else if (def.key === 'draftModel') draftModel = value as string
    else settings[def.key] = value
    seen.add(def.key)
    argOrder.push(joined ? { field: def.key, flag, joined: true } : { field: def.key, flag })
  }
  const pushExtra = (a: string): void => {
    extraArgs.push(a)
    const last = argOrder[argOrder.length - 1]
    if (last && 'extra' in last) argOrder[argOrder.length - 1] = { extra: last.extra + 1 }
    else argOrder.push({ extra: 1 })
  }
  let i = 0
  while (i < args.length) {
    const a = args[i] as string
    const eq = a.startsWith('-') ? a.indexOf('=') : -1
    const flag = eq > 0 ? a.slice(0, eq) : a
    const def = fieldForFlag(flag)
    if (def && !seen.has(def.key)) {
      if (def.kind === 'bool') {
        if (eq < 0) {
          set(def, true, flag, false)
          i++
          continue
        }
      } else if (eq > 0) {
        const value = parseFieldValue(def.kind, a.slice(eq + 1))
        if (value !== undefined) {
          set(def, value, flag, true)
          i++
          continue
        }
      } else if (i + 1 < args.length) {
        const text = args[i + 1] as string
        const value = looksLikeFlag(text) ? undefined : parseFieldValue(def.kind, text)
        if (value !== undefined) {
          set(def, value, flag, false)
          i += 2
          continue
        }
      }
    }
    pushExtra(a)
    i++
  }
  return { model, ...(draftModel !== undefined ? { draftModel } : {}), settings: settings as ProfileSettings, extraArgs, argOrder }
}

/** Picks the spelling: the recorded one if it is still a spelling of the field, else the first the engine accepts. */
function spellingFor(def: FieldDef, recorded: string | undefined, accepts?: (flag: string) => boolean): string {
  if (recorded !== undefined && def.flags.includes(recorded)) return recorded
  if (accepts) {
    const ok = def.flags.find(accepts)
    if (ok) return ok
  }
  return def.flags[0] as string
}

function emitField(out: string[], def: FieldDef, value: FieldValue, flag: string, joined: boolean): boolean {
  if (value === undefined || value === false) return false
  if (def.kind === 'bool') out.push(flag)
  else if (joined) out.push(`${flag}=${String(value)}`)
  else out.push(flag, String(value))
  return true
}

/**
 * The llama-server arguments of a profile: in the recorded order first, then
 * typed fields set since (in FIELD_DEFS order), then remaining extra arguments.
 * `accepts` (from the detected engine) chooses among spellings for fields with no recorded one.
 */
export function renderArgs(p: ProfileArgs, accepts?: (flag: string) => boolean): string[] {
  const out: string[] = []
  const done = new Set<FieldKey>()
  let extraIndex = 0
  for (const slot of p.argOrder ?? []) {
    if ('extra' in slot) {
      const n = Math.min(slot.extra, p.extraArgs.length - extraIndex)
      // A loop, not push(...slice): spreading 200,000 arguments overflows the stack.
      for (let k = 0; k < n; k++) out.push(p.extraArgs[extraIndex + k] as string)
      extraIndex += n
    } else if (!done.has(slot.field)) {
      const def = fieldDef(slot.field)
      if (emitField(out, def, getField(p, slot.field), spellingFor(def, slot.flag, accepts), slot.joined === true)) done.add(slot.field)
    }
  }
  for (const def of FIELD_DEFS) {
    if (done.has(def.key)) continue
    emitField(out, def, getField(p, def.key), spellingFor(def, undefined, accepts), false)
  }
  for (let k = extraIndex; k < p.extraArgs.length; k++) out.push(p.extraArgs[k] as string)
  return out
}

/** Replaces the argument part of a profile with the parse of `args` (keeps id, name, binary, env, notes). */
export function withArgs(profile: Profile, args: readonly string[]): Profile {
  const parsed = parseArgs(args)
  const { draftModel: _drop, ...rest } = profile
  return {
    ...rest,
    model: parsed.model,
    ...(parsed.draftModel !== undefined ? { draftModel: parsed.draftModel } : {}),
    settings: parsed.settings,
    extraArgs: [...parsed.extraArgs],
    argOrder: [...(parsed.argOrder ?? [])],
  }
}
