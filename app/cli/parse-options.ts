import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from './cli-error'

/** node:util parseArgs, strict, with its errors turned into one-line UsageErrors. */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(args: readonly string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals })
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0] as string)
  }
}

export function positiveNumber(name: string, text: string | undefined, fallback: number): number
export function positiveNumber(name: string, text: string | undefined, fallback: null): number | null
export function positiveNumber(name: string, text: string | undefined, fallback: number | null): number | null {
  if (text === undefined) return fallback
  const n = Number(text)
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} needs a positive number, got "${text}"`)
  return n
}
