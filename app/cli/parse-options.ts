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

/** A TCP port given as --<name>: digits only (Number() would take "1e3" for 1000 and "0x50" for 80), 1-65535. */
export function portNumber(name: string, text: string | undefined): number | null {
  if (text === undefined) return null
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN
  if (!(port >= 1 && port <= 65_535)) throw new UsageError(`--${name} needs a port number, a whole number from 1 to 65535, got "${text}"`)
  return port
}
