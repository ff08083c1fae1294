import { FLAGS } from '../contract/flag-registry'

/**
 * The flags whose value is a secret, every spelling from the flag registry
 * (--api-key, --hf-token, -hft, …), so a spelling added there is redacted too.
 * Key files (--api-key-file) name a path: their content is read as a secret instead.
 */
export const SECRET_FLAG_SPELLINGS: readonly string[] = FLAGS.filter((d) => /(^|-)(api-key|token)$/.test(d.name)).flatMap(
  (d) => d.spellings,
)

const REDACTED = '***'

/** The argument list with API keys and tokens replaced, for logs and status displays. */
export function redactArgs(args: readonly string[]): string[] {
  const out = [...args]
  for (let i = 0; i < out.length; i++) {
    const a = out[i] as string
    const eq = a.indexOf('=')
    if (SECRET_FLAG_SPELLINGS.includes(a) && i + 1 < out.length) out[i + 1] = REDACTED
    else if (eq > 0 && SECRET_FLAG_SPELLINGS.includes(a.slice(0, eq))) out[i] = `${a.slice(0, eq)}=${REDACTED}`
  }
  return out
}

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

/**
 * Text with what looks like a secret replaced (a value after a key flag, NAME=value for secret-named variables, a
 * Bearer or x-api-key header, Hugging Face, GitHub and sk- tokens): log lines shown in a problem's details
 * (`run --json`, --verbose, the dashboard's Why?), and the diagnostics bundle, which also removes known values.
 */
export function redactSecretShapes(text: string): string {
  let out = text.replace(FLAG_VALUE, (_m, lead: string, flag: string, sep: string) => `${lead}${flag}${sep}${REDACTED}`)
  out = out.replace(NAMED_VALUE, (m, name: string, sep: string, value: string) =>
    value === REDACTED || value === `"${REDACTED}"` ? m : `${name}${sep}${quoteLike(value)}`,
  )
  out = out.replace(BEARER, `$1$2${REDACTED}`)
  out = out.replace(HEADER_KEY, `$1$2${REDACTED}`)
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED)
  return out
}

/** Keeps the quotes around a redacted value, so JSON stays JSON. */
function quoteLike(value: string): string {
  if (value.startsWith('"')) return `"${REDACTED}"`
  if (value.startsWith("'")) return `'${REDACTED}'`
  return REDACTED
}
