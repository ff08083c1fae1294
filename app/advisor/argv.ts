/**
 * Reading llama-server argument vectors for the lint rules (pure). Unlike the
 * profile parser, these see every occurrence of a flag, in any spelling.
 */

/** A flag, not a negative number. */
export function looksLikeFlag(token: string): boolean {
  return /^-[A-Za-z-]/.test(token)
}

/** Flags that never take a value (so a following token is the next flag or argument). */
const SWITCHES = new Set([
  '--no-mmap', '--mmap', '--mlock', '--cpu-moe', '-cmoe', '--jinja', '--no-jinja', '-vhad', '--v-cache-hadamard', '-khad', '--k-cache-hadamard',
  '--merge-qkv', '-mqkv', '--no-warmup', '--warmup', '--parallel-tool-calls', '-ptcall', '-kvu', '--kv-unified', '-no-kvu', '--no-kv-unified',
  '-nkvo', '--no-kv-offload', '--no-op-offload', '--metrics', '--slots', '--no-slots', '-rtr', '--run-time-repack', '-cb', '--cont-batching',
  '-nocb', '--no-cont-batching', '-v', '--verbose', '--log-timestamps', '--log-prefix', '--no-webui', '--embedding', '--embeddings', '--no-fa', '-no-fa',
  '--log-jsonl', '--reasoning-preserve', '--no-reasoning-preserve', '--check-tensors', '--no-kv-unified', '-mtp',
])

const FA_VALUES = /^(on|off|auto|1|0|-1|true|false)$/i

/** The flag part of a token: "--ctx-size=4096" → "--ctx-size"; a non-flag gives null. */
export function flagOf(token: string): string | null {
  if (!looksLikeFlag(token)) return null
  const eq = token.indexOf('=')
  return eq > 0 ? token.slice(0, eq) : token
}

/** One flag occurrence: where it is, its value (null for a switch) and how many tokens it spans. */
export interface FlagUse {
  readonly flag: string
  readonly index: number
  readonly value: string | null
  readonly span: 1 | 2
}

/** Whether `flag` (as a separate token) takes the next token as its value. */
export function takesValue(flag: string, next: string | undefined): boolean {
  if (next === undefined || SWITCHES.has(flag)) return false
  // Older builds took a bare -fa; newer ones need on|off|auto.
  if (flag === '-fa' || flag === '--flash-attn') return FA_VALUES.test(next)
  return !looksLikeFlag(next)
}

/** Every flag occurrence in order. Tokens that are neither flags nor values are skipped. */
export function flagUses(args: readonly string[]): FlagUse[] {
  const out: FlagUse[] = []
  for (let i = 0; i < args.length; i++) {
    const token = args[i] as string
    const flag = flagOf(token)
    if (flag === null) continue
    if (flag !== token) {
      out.push({ flag, index: i, value: token.slice(flag.length + 1), span: 1 })
    } else if (takesValue(flag, args[i + 1])) {
      out.push({ flag, index: i, value: args[i + 1] as string, span: 2 })
      i++
    } else {
      out.push({ flag, index: i, value: null, span: 1 })
    }
  }
  return out
}

/** The uses of any of `names`. */
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
