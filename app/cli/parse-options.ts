import { parseArgs, type ParseArgsConfig } from 'node:util'
import { UsageError } from './cli-error'
import { closestName } from './did-you-mean'

type OptionsConfig = NonNullable<ParseArgsConfig['options']>

const looksNegativeNumber = (text: string): boolean => /^-(\d|\.\d)/.test(text)

/** What is wrong with the options, found before parseArgs so that none of its raw text reaches the user. */
function checkTokens(args: readonly string[], options: OptionsConfig, allowPositionals: boolean): string[] {
  const longNames = Object.keys(options).map((n) => `--${n}`)
  const shortNames = Object.values(options).flatMap((o) => (o.short ? [`-${o.short}`] : []))
  const known = [...longNames, ...shortNames]
  const unknown = (typed: string): never => {
    const guess = closestName(typed, longNames)
    if (guess) throw new UsageError(`Unknown option ${typed} (did you mean ${guess}?); --help lists this command's options.`)
    const list = longNames.length === 0 ? 'no options' : longNames.length <= 8 ? longNames.join(', ') : 'the options --help lists'
    throw new UsageError(`Unknown option ${typed}; this command takes ${list}.`)
  }
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const token = args[i] as string
    if (token === '--') {
      out.push(...args.slice(i))
      break
    }
    if (!token.startsWith('-') || token === '-') {
      if (!allowPositionals) throw new UsageError(`Unexpected argument "${token}"; this command takes only options (--help lists them).`)
      out.push(token)
      continue
    }
    const typed = token.startsWith('--') ? (token.split('=')[0] as string) : token.slice(0, 2)
    if (!known.includes(typed)) unknown(typed)
    const name = typed.startsWith('--') ? typed.slice(2) : (Object.entries(options).find(([, o]) => `-${o.short}` === typed)?.[0] as string)
    const config = options[name] as OptionsConfig[string]
    const inlineValue = token.startsWith('--') ? token.includes('=') : token.length > 2
    if (config.type === 'boolean') {
      if (inlineValue) throw new UsageError(`The option ${typed} takes no value; write ${typed} on its own.`)
      out.push(token)
      continue
    }
    if (inlineValue) {
      out.push(token)
      continue
    }
    const next = args[i + 1]
    if (next === undefined || (next.startsWith('-') && !looksNegativeNumber(next))) {
      throw new UsageError(`The option ${typed} needs a value right after it (or as ${typed}=VALUE).`)
    }
    // "--interval -5" is a value the user typed, to be judged by the option's own rule, not an "ambiguous" option.
    out.push(`--${name}=${next}`)
    i++
  }
  return out
}

/** node:util parseArgs, strict, behind a check that turns every mistake into one sentence with its fix. */
export function parseOptions<T extends OptionsConfig>(args: readonly string[], options: T, allowPositionals = false) {
  const checked = checkTokens(args, options, allowPositionals)
  try {
    return parseArgs({ args: checked, options, strict: true, allowPositionals })
  } catch {
    // checkTokens catches what parseArgs refuses; this is the net under it, still without the parser's text.
    throw new UsageError("The options could not be read; check their spelling and quotes (--help lists this command's options).")
  }
}

/** What a positive number option takes, said in its unit: "a number of seconds above 0, like 2". */
export interface NumberMeaning {
  readonly unit: string
  readonly example: string
}

export function positiveNumber(name: string, text: string | undefined, fallback: number, meaning?: NumberMeaning): number
export function positiveNumber(name: string, text: string | undefined, fallback: null, meaning?: NumberMeaning): number | null
export function positiveNumber(name: string, text: string | undefined, fallback: number | null, meaning?: NumberMeaning): number | null {
  if (text === undefined) return fallback
  const n = Number(text)
  if (text.trim() === '' || !Number.isFinite(n) || n <= 0) {
    const what = meaning ? `a number of ${meaning.unit} above 0, like ${meaning.example}` : 'a number above 0, like 2'
    throw new UsageError(`The option --${name} takes ${what}; "${text}" is not one.`)
  }
  return n
}

/** A TCP port given as --<name>: digits only (Number() would take "1e3" for 1000 and "0x50" for 80), 1-65535. */
export function portNumber(name: string, text: string | undefined): number | null {
  if (text === undefined) return null
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN
  if (!(port >= 1 && port <= 65_535))
    throw new UsageError(`The option --${name} needs a port number, a whole number from 1 to 65535, got "${text}".`)
  return port
}
