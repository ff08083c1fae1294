import { fieldSpellings, lastValue } from '../contract/flag-args'
import { FileRefusedError } from '../lib/read-regular-file'
import { keyCharacterProblem, keyProblemSentence, readKeyFileText } from '../supervisor/api-key-rules'

/**
 * The key our own requests must send to a server launched with these
 * arguments: `--api-key K[,K2]` (the first key), else the first line of
 * `--api-key-file`, else LLAMA_API_KEY from the profile's environment.
 * Null when the server has no key. An unreadable key file is an error with
 * the path in its message; so is a key no header can carry (it goes into Authorization).
 */
export async function resolveApiKey(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<string | null> {
  const inline = lastValue(args, fieldSpellings('apiKey'))
  if (inline !== null) return sendable(firstKey(inline), '--api-key')
  const file = lastValue(args, fieldSpellings('apiKeyFile'))
  if (file !== null) {
    let text: string
    try {
      text = await readKeyFileText(file)
    } catch (err) {
      if (err instanceof FileRefusedError) throw err
      throw new Error(`cannot read --api-key-file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
    }
    const line = text.split(/\r?\n/).find((l) => l.trim() !== '')
    return sendable(line ? line.trim() : null, `--api-key-file ${file}`)
  }
  const fromEnv = env.LLAMA_API_KEY
  return fromEnv ? sendable(firstKey(fromEnv), 'LLAMA_API_KEY') : null
}

function sendable(key: string | null, source: string): string | null {
  const problem = key === null ? null : keyCharacterProblem(key, source)
  if (problem) throw new Error(keyProblemSentence(problem))
  return key
}

function firstKey(list: string): string | null {
  const key = list
    .split(',')
    .map((k) => k.trim())
    .find((k) => k !== '')
  return key ?? null
}
