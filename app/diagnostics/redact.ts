import { SECRET_FLAG_SPELLINGS } from '../supervisor/redact'

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
const flagAlternation = [...SECRET_FLAG_SPELLINGS]
  .sort((a, b) => b.length - a.length)
  .map(escapeRegExp)
  .join('|')

/** A value after a secret flag: `--api-key K`, `--api-key=K`, `"--api-key", "K"` (JSON arrays), quoted or not. */
const FLAG_VALUE = new RegExp(`(^|[\\s"'\\[,(])(${flagAlternation})(=|\\s+|"\\s*,\\s*"|'\\s*,\\s*')("[^"]*"|'[^']*'|[^\\s"',\\])]+)`, 'g')
/**
 * NAME=value or "NAME": "value" where NAME is secret-like (env lines, JSON of profile env and settings). A bare
 * "token" needs a prefix (HF_TOKEN, access_token): llama-server logs "EOS token = 2".
 */
const SECRET_NAME = String.raw`\b(?:\w*api_?key|\w*[A-Za-z0-9]_?token|\w*(?:secret|password|passwd|credentials?))\b`
const NAMED_VALUE = new RegExp(String.raw`(${SECRET_NAME})(["']?\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s"',}]+)`, 'gi')
const BEARER = /\b(Bearer)(\s+)[A-Za-z0-9._~+/-]+=*/gi
const HEADER_KEY = /\b(x-api-key|api-key)(\s*:\s*)\S+/gi
/** Token shapes: Hugging Face (hf_…), GitHub (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_…), OpenAI-style sk-… keys. */
const TOKEN_SHAPES: readonly RegExp[] = [
  /\bhf_[A-Za-z0-9]{8,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{16,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
]
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
    out = out.replace(FLAG_VALUE, (_m, lead: string, flag: string, sep: string) => `${lead}${flag}${sep}${REDACTED}`)
    out = out.replace(NAMED_VALUE, (m, name: string, sep: string, value: string) =>
      value === REDACTED || value === `"${REDACTED}"` ? m : `${name}${sep}${quoteLike(value)}`,
    )
    out = out.replace(BEARER, `$1$2${REDACTED}`)
    out = out.replace(HEADER_KEY, `$1$2${REDACTED}`)
    for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED)
    for (const dir of USER_DIRS) out = out.replace(dir, `$1${USER_PLACEHOLDER}`)
    for (const word of this.userWords) out = out.replace(word, USER_PLACEHOLDER)
    return out
  }
}

/** Keeps the quotes around a redacted value, so JSON stays JSON. */
function quoteLike(value: string): string {
  if (value.startsWith('"')) return `"${REDACTED}"`
  if (value.startsWith("'")) return `'${REDACTED}'`
  return REDACTED
}
