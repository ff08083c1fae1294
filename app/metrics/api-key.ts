import { readFile } from 'node:fs/promises'
import { fieldSpellings, lastValue } from '../contract/flag-args'

/**
 * The key our own requests must send to a server launched with these
 * arguments: `--api-key K[,K2]` (the first key), else the first line of
 * `--api-key-file`, else LLAMA_API_KEY from the profile's environment.
 * Null when the server has no key. An unreadable key file is an error with
 * the path in its message.
 */
export async function resolveApiKey(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<string | null> {
  const inline = lastValue(args, fieldSpellings('apiKey'))
  if (inline !== null) return firstKey(inline)
  const file = lastValue(args, fieldSpellings('apiKeyFile'))
  if (file !== null) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (err) {
      throw new Error(`cannot read --api-key-file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
    }
    const line = text.split(/\r?\n/).find((l) => l.trim() !== '')
    return line ? line.trim() : null
  }
  const fromEnv = env.LLAMA_API_KEY
  return fromEnv ? firstKey(fromEnv) : null
}

function firstKey(list: string): string | null {
  const key = list
    .split(',')
    .map((k) => k.trim())
    .find((k) => k !== '')
  return key ?? null
}
