import { redactSecretShapes } from '../supervisor/redact'

/**
 * Redaction for the diagnostics bundle: everything a user hands to someone
 * else passes through one Redactor, which knows the secrets of this home by
 * value (keys from profiles, key files and the environment) and also removes
 * what merely looks like one (a value after a key flag, a Bearer header, a
 * Hugging Face or GitHub token, NAME=value for secret-named variables), then
 * the user's name in paths and anywhere else.
 */

export { SECRET_FLAG_SPELLINGS } from '../supervisor/redact'

export const REDACTED = '***'
export const USER_PLACEHOLDER = '<user>'

/** Variables whose value is a secret: llama-server's key, the Hub's and GitHub's tokens, and any *KEY/*TOKEN/*SECRET/*PASSWORD. */
const SECRET_ENV_NAME = /(^|_)(API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)($|_)/i

/** Whether an environment variable's value must never be shown. */
export function isSecretEnvName(name: string): boolean {
  return SECRET_ENV_NAME.test(name) && !/_FILE$/i.test(name)
}

/** Shorter literals would wipe ordinary words and digits; such keys are still caught by the patterns. */
const MIN_LITERAL_LENGTH = 4

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A user folder: /home/NAME, /Users/NAME, C:\Users\NAME (also with / or the doubled \\ of JSON). */
const USER_DIRS: readonly RegExp[] = [
  /(\/(?:home|Users)\/)([^/\\\s"':]+)/g,
  /(\b[A-Za-z]:(?:\\\\|\\|\/)(?:Users|Documents and Settings)(?:\\\\|\\|\/))([^/\\\s"':]+)/gi,
]

export interface RedactorOptions {
  /** Secret values known by value (keys, tokens). */
  readonly secrets: Iterable<string>
  /** The OS user's names (the system's and the environment's), removed wherever they appear. */
  readonly userNames: readonly (string | null)[]
}

/** Removes secrets and the user's name from text. */
export class Redactor {
  private readonly literals: readonly string[]
  private readonly userWords: readonly RegExp[]

  constructor(options: RedactorOptions) {
    const forms = new Set<string>()
    for (const raw of options.secrets) {
      const secret = raw.trim()
      if (secret.length < MIN_LITERAL_LENGTH) continue
      forms.add(secret)
      forms.add(JSON.stringify(secret).slice(1, -1)) // as it appears inside a JSON string
    }
    // Longest first: a key that contains another is removed whole.
    this.literals = [...forms].sort((a, b) => b.length - a.length)
    // A one- or two-letter name would match inside ordinary words; paths still lose it.
    const users = new Set(options.userNames.map((u) => u?.trim() ?? '').filter((u) => u.length >= 3))
    this.userWords = [...users].map((u) => new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(u)}(?![A-Za-z0-9_])`, 'gi'))
  }

  text(input: string): string {
    let out = input
    for (const literal of this.literals) out = out.split(literal).join(REDACTED)
    out = redactSecretShapes(out)
    for (const dir of USER_DIRS) out = out.replace(dir, `$1${USER_PLACEHOLDER}`)
    for (const word of this.userWords) out = out.replace(word, USER_PLACEHOLDER)
    return out
  }
}
