import { readRegularFile } from '../lib/read-regular-file'
import { fieldSpellings, lastValue } from '../contract/flag-args'
import { profileArgv } from '../profiles/launch-spec'
import type { Profile } from '../profiles/schema'
import { isSecretEnvName, SECRET_FLAG_SPELLINGS } from './redact'

/** A key file is a few lines; a bigger file is not read whole (its first lines are the keys). */
const KEY_FILE_MAX_BYTES = 64 * 1024

/** Every value of a secret flag in an argument vector (`--api-key K`, `--api-key=K`, `-hft T`), split on commas too. */
export function secretFlagValues(args: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    for (const flag of SECRET_FLAG_SPELLINGS) {
      if (a === flag && i + 1 < args.length) out.push(args[i + 1] as string)
      else if (a.startsWith(`${flag}=`)) out.push(a.slice(flag.length + 1))
    }
  }
  return out.flatMap(withParts)
}

/** A comma-separated key list is also redacted key by key (llama-server accepts `--api-key a,b`). */
function withParts(value: string): string[] {
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
  return parts.length > 1 ? [value, ...parts] : [value]
}

/** The keys in an --api-key-file: one per line, # comments skipped; unreadable files give none. */
export async function keyFileSecrets(path: string): Promise<string[]> {
  let text: string
  try {
    text = (await readRegularFile(path, KEY_FILE_MAX_BYTES)).toString('utf8')
  } catch {
    return []
  }
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .flatMap(withParts)
}

/** Values of secret-named variables (LLAMA_API_KEY, HF_TOKEN, GITHUB_TOKEN, …). */
export function envSecrets(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env).flatMap(([name, value]) => (value && isSecretEnvName(name) ? withParts(value) : []))
}

/**
 * The secrets this home and process know by value: every profile's keys and
 * tokens (typed settings, arguments, environment, key file contents) and the
 * secret-named variables of the environment the app runs in.
 */
export async function knownSecrets(profiles: readonly Profile[], env: Readonly<Record<string, string | undefined>>): Promise<Set<string>> {
  const secrets = new Set<string>(envSecrets(env))
  for (const profile of profiles) {
    const args = profileArgv(profile)
    for (const s of secretFlagValues(args)) secrets.add(s)
    if (profile.settings.apiKey) for (const s of withParts(profile.settings.apiKey)) secrets.add(s)
    for (const s of envSecrets(profile.env)) secrets.add(s)
    // llama-server also takes the key file from LLAMA_ARG_API_KEY_FILE.
    for (const keyFile of [lastValue(args, fieldSpellings('apiKeyFile')), profile.env.LLAMA_ARG_API_KEY_FILE]) {
      if (keyFile) for (const s of await keyFileSecrets(keyFile)) secrets.add(s)
    }
  }
  const envKeyFile = env.LLAMA_ARG_API_KEY_FILE
  if (envKeyFile) for (const s of await keyFileSecrets(envKeyFile)) secrets.add(s)
  return secrets
}
