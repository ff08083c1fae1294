import { FileRefusedError, readRegularFile } from '../lib/read-regular-file'

/**
 * What makes an API key good enough for a listener other machines can reach,
 * shared by every place that opens one: the supervisor's host guard, the
 * endpoint and `llama-tray serve`. llama-server takes an empty key as a key
 * (`--api-key ''` or `--api-key ,` lets a request without one in), and reads
 * a key file with no key lines as "no key at all", so presence of the flag
 * says nothing; the keys themselves are checked.
 */

/** Shorter keys are guessable over a LAN by brute force. */
export const MIN_API_KEY_LENGTH = 8

/** Why a key would not protect the listener: the cause, then what to do (the folder's reason/hint pair). */
export interface KeyProblem {
  readonly reason: string
  readonly hint: string
}

/** The problem as one sentence, for an error message (the endpoint, the CLI). */
export function keyProblemSentence(p: KeyProblem): string {
  return `${p.reason.charAt(0).toUpperCase()}${p.reason.slice(1)}: ${p.hint}.`
}

// A key travels in an HTTP header (Authorization: Bearer …) and as one line of a key file: visible ASCII and spaces only.
const UNSENDABLE = /[^\x20-\x7e]/

/** Why a key could not be sent in a header or kept on one line (a line break, a control or non-ASCII character), or null. */
export function keyCharacterProblem(key: string, source: string): KeyProblem | null {
  const bad = UNSENDABLE.exec(key)?.[0]
  if (bad === undefined) return null
  const what =
    bad === '\n' || bad === '\r' ? 'a line break' : bad < ' ' || bad === '\x7f' ? 'a control character' : 'a character that is not ASCII'
  return {
    reason: `the key in ${source} holds ${what}, which no client can send in a header`,
    hint: 'use a key of ASCII letters, digits and punctuation on one line',
  }
}

/**
 * Why a key given inline (--api-key) cannot become a line of the 0600 key file the supervisor hands llama-server
 * instead (api-key-file.ts), or null: the file skips lines that start with #, and a quote is CSV quoting to newer
 * builds' --api-key but a plain character in the file, so the two would disagree on the key.
 */
export function keyFileLineProblem(key: string, source: string): KeyProblem | null {
  if (key.startsWith('#'))
    return {
      reason: `a key in ${source} starts with #, read as a comment in llama-server's key file`,
      hint: 'start it with another character',
    }
  if (key.includes('"'))
    return { reason: `a key in ${source} holds a quote, which llama-server versions read differently`, hint: 'use a key without quotes' }
  return null
}

/** Why one key would not protect a listener, or null. */
export function keyProblem(key: string, source: string): KeyProblem | null {
  const characters = keyCharacterProblem(key, source)
  if (characters) return characters
  if (key === '') {
    return {
      reason: `an empty key in ${source} lets in requests that send no key`,
      hint: `give every key at least ${MIN_API_KEY_LENGTH} characters (remove stray commas)`,
    }
  }
  if (key.trim() === '')
    return {
      reason: `a key made only of spaces in ${source} does not protect the server`,
      hint: `use a key of at least ${MIN_API_KEY_LENGTH} characters that are not all spaces`,
    }
  if (key.trim().length < MIN_API_KEY_LENGTH) {
    return {
      reason: `a key of ${key.trim().length} characters in ${source} is short enough to guess`,
      hint: `use at least ${MIN_API_KEY_LENGTH} characters`,
    }
  }
  return null
}

/**
 * A comma-separated key list as `--api-key` and LLAMA_API_KEY take it (llama-server
 * splits on commas and keeps empty parts): null when every key is good.
 */
export function keyListProblem(list: string, source: string): KeyProblem | null {
  for (const key of list.split(',')) {
    const problem = keyProblem(key, source)
    if (problem) return problem
  }
  return null
}

/** The keys of a key file as llama-server reads them: one per line, blank lines and `#` comments skipped. */
export function keyFileKeys(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/\r$/, ''))
    .filter((line) => line !== '' && !line.startsWith('#'))
}

/** Null when the file's text holds at least one key and every key is good. */
export function keyFileProblem(text: string, source: string): KeyProblem | null {
  const keys = keyFileKeys(text)
  if (keys.length === 0) {
    return {
      reason: `there is no key in ${source}, only blank or # lines, so llama-server would let every request in`,
      hint: `put a key of at least ${MIN_API_KEY_LENGTH} characters on its first line`,
    }
  }
  for (const key of keys) {
    const problem = keyProblem(key, source)
    if (problem) return problem
  }
  return null
}

/** A key file holds a few keys: anything bigger is not one (a 600 MB read of /dev/zero was). */
export const MAX_KEY_FILE_BYTES = 16 * 1024

/** The text of a key file: only a regular file of at most MAX_KEY_FILE_BYTES; errors name the file. */
export async function readKeyFileText(path: string, source = `--api-key-file ${path}`): Promise<string> {
  return (await readRegularFile(path, MAX_KEY_FILE_BYTES, `The key file ${source}`)).toString('utf8')
}

export type KeyFileResult = { readonly ok: true; readonly keys: readonly string[] } | { readonly ok: false; readonly problem: KeyProblem }

/** Reads and checks a key file; an unreadable file is a problem with its error code. */
export async function readKeyFile(path: string, source = `--api-key-file ${path}`): Promise<KeyFileResult> {
  let text: string
  try {
    text = await readKeyFileText(path, source)
  } catch (err) {
    if (err instanceof FileRefusedError) {
      const [reason, hint] = err.message.replace(/^The /, '').replace(/\.$/, '').split(': ')
      return { ok: false, problem: { reason: reason ?? err.message, hint: hint ?? 'use a regular file' } }
    }
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message
    return {
      ok: false,
      problem: { reason: `cannot read the key file ${source} (${code})`, hint: 'check the path and that this user may read it' },
    }
  }
  const problem = keyFileProblem(text, source)
  return problem ? { ok: false, problem } : { ok: true, keys: keyFileKeys(text).map((k) => k.trim()) }
}
