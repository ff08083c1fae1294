import type { ServerFork } from './profile'
import { FLAGS, type FlagDef, type ProfileFieldKey } from './flag-registry'

/**
 * Reading llama-server argument vectors with the flag registry (pure): the one
 * tokenizer every reader uses (profiles, advisor, fit, supervisor, bench).
 */

const BY_NAME = new Map<string, FlagDef>(FLAGS.map((d) => [d.name, d]))
const BY_SPELLING = new Map<string, FlagDef[]>()
for (const def of FLAGS) {
  for (const s of def.spellings) BY_SPELLING.set(s, [...(BY_SPELLING.get(s) ?? []), def])
}

/** A flag, not a negative number. */
export function looksLikeFlag(token: string): boolean {
  return /^-[A-Za-z-]/.test(token)
}

/**
 * The registry entry for a spelling. A few spellings mean different flags on
 * different engines (-dr: mainline's --docker-repo, ik_llama's --dry-run);
 * `engine` picks, else the first (mainline's) meaning.
 */
export function flagForSpelling(spelling: string, fork?: ServerFork): FlagDef | undefined {
  const defs = BY_SPELLING.get(spelling)
  if (!defs) return undefined
  return (fork && defs.find((d) => d.forks.includes(fork))) || defs[0]
}

/** The entry named `name` (a programming error when there is none). */
export function flagNamed(name: string): FlagDef {
  const def = BY_NAME.get(name)
  if (!def) throw new Error(`no llama-server flag named ${name} in the registry`)
  return def
}

/** Every spelling of the flags named, in order. */
export function spellingsOf(...names: readonly string[]): readonly string[] {
  return names.flatMap((n) => flagNamed(n).spellings)
}

/** Every spelling that fills a typed profile field, first the one a new profile writes. */
export function fieldSpellings(field: ProfileFieldKey): readonly string[] {
  return FLAGS.filter((d) => d.field === field).flatMap((d) => d.spellings)
}

/** What to use instead of `spelling` where an engine rejects it, if anything is known. */
export function replacementFor(spelling: string): string | undefined {
  return flagForSpelling(spelling)?.replacement
}

/** The flag part of a token: "--ctx-size=4096" → "--ctx-size"; a non-flag gives null. */
export function flagOf(token: string): string | null {
  if (!looksLikeFlag(token)) return null
  const eq = token.indexOf('=')
  return eq > 0 ? token.slice(0, eq) : token
}

/** One flag occurrence: where it is, its value (null for a switch or a missing value) and how many tokens it spans. */
export interface FlagUse {
  readonly flag: string
  readonly index: number
  readonly value: string | null
  readonly span: 1 | 2
  /** Its registry entry; undefined for a flag no engine we know lists. */
  readonly def: FlagDef | undefined
}

/** Whether `flag` (as a separate token) takes the next token as its value. */
export function takesValue(flag: string, next: string | undefined, fork?: ServerFork): boolean {
  if (next === undefined || looksLikeFlag(next)) return false
  const def = flagForSpelling(flag, fork)
  if (!def) return true // unknown: a following non-flag token can only be its value
  if (def.value === 'none') return false
  if (def.value === 'optional' && def.choices) return def.choices.includes(next.toLowerCase())
  return true
}

/** Every flag occurrence in order. Tokens that are neither flags nor values are skipped. */
export function flagUses(args: readonly string[], fork?: ServerFork): FlagUse[] {
  const out: FlagUse[] = []
  for (let i = 0; i < args.length; i++) {
    const token = args[i] as string
    const flag = flagOf(token)
    if (flag === null) continue
    const def = flagForSpelling(flag, fork)
    if (flag !== token) {
      out.push({ flag, index: i, value: token.slice(flag.length + 1), span: 1, def })
    } else if (takesValue(flag, args[i + 1], fork)) {
      out.push({ flag, index: i, value: args[i + 1] as string, span: 2, def })
      i++
    } else {
      out.push({ flag, index: i, value: null, span: 1, def })
    }
  }
  return out
}

/** The uses of any of `names` (spellings). */
export function usesOf(args: readonly string[], names: readonly string[]): FlagUse[] {
  return flagUses(args).filter((u) => names.includes(u.flag))
}

export function has(args: readonly string[], names: readonly string[]): boolean {
  return usesOf(args, names).length > 0
}

/** The value of the last use of any of `names` (what llama-server keeps), or null. */
export function lastValue(args: readonly string[], names: readonly string[]): string | null {
  const uses = usesOf(args, names)
  return uses.length > 0 ? (uses[uses.length - 1] as FlagUse).value : null
}

/** A whole-number value, or null when absent or not a number. */
export function intValue(args: readonly string[], names: readonly string[]): number | null {
  const v = lastValue(args, names)
  if (v === null || !/^-?\d+$/.test(v)) return null
  return Number(v)
}
