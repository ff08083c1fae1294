import type { WarningFix } from '../contract/warnings'
import { flagUses } from '../contract/flag-args'

/**
 * `args` with a fix applied: every use of a removeArgs flag (any spelling the
 * fix lists, with its value, `--flag=v` included) goes, and addArgs take the
 * place of the first removed flag (or go at the end), so the order stays readable.
 */
export function applyFixToArgs(args: readonly string[], fix: Pick<WarningFix, 'removeArgs' | 'addArgs'>): string[] {
  const remove = new Set(fix.removeArgs)
  const skip = new Map<number, number>()
  for (const u of flagUses(args)) if (remove.has(u.flag)) skip.set(u.index, u.span)
  const out: string[] = []
  let insertAt: number | null = null
  for (let i = 0; i < args.length; i++) {
    const span = skip.get(i)
    if (span !== undefined) {
      insertAt ??= out.length
      i += span - 1
      continue
    }
    out.push(args[i] as string)
  }
  out.splice(insertAt ?? out.length, 0, ...fix.addArgs)
  return out
}
