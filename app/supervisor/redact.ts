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
