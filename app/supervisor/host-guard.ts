import { fieldSpellings, lastValue, usesOf } from '../contract/flag-args'
import { keyCharacterProblem, keyFileLineProblem, keyListProblem, readKeyFile, type KeyProblem } from './api-key-rules'
import { HOST_FLAGS, isLoopbackHost } from './launch-args'

const KEY_FLAGS = fieldSpellings('apiKey')
const KEY_FILE_FLAGS = fieldSpellings('apiKeyFile')

/**
 * Why a server launched with these arguments would let other machines in
 * unprotected, or null. Only a listener that leaves loopback is judged. Every
 * key source llama-server adds up counts (each --api-key and --api-key-file,
 * LLAMA_API_KEY and LLAMA_ARG_API_KEY_FILE from the profile's environment),
 * and each must hold good keys: one empty key is enough to open the server.
 */
export async function exposedListenerProblem(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<KeyProblem | null> {
  const host = lastValue(args, HOST_FLAGS)
  if (host === null || isLoopbackHost(host)) return null
  const inline = usesOf(args, KEY_FLAGS)
  const files = usesOf(args, KEY_FILE_FLAGS)
  const envKey = env.LLAMA_API_KEY
  const envFile = env.LLAMA_ARG_API_KEY_FILE
  if (inline.length === 0 && files.length === 0 && envKey === undefined && envFile === undefined) {
    return {
      reason: `listening on ${host} would expose llama-server to the network without an API key`,
      hint: 'add --api-key-file (or --api-key), or listen on 127.0.0.1',
    }
  }
  for (const use of inline) {
    if (use.value === null) return { reason: `no key follows ${use.flag}`, hint: `put the key right after ${use.flag}` }
    const problem = keyListProblem(use.value, use.flag)
    if (problem) return problem
  }
  // llama-server reads LLAMA_API_KEY only when no --api-key is given.
  if (inline.length === 0 && envKey !== undefined) {
    const problem = keyListProblem(envKey, 'LLAMA_API_KEY')
    if (problem) return problem
  }
  const paths = files.map((u) => ({ path: u.value, source: u.flag }))
  if (files.length === 0 && envFile !== undefined) paths.push({ path: envFile, source: 'LLAMA_ARG_API_KEY_FILE' })
  for (const { path, source } of paths) {
    if (path === null) return { reason: `no file follows ${source}`, hint: `put the key file's path right after ${source}` }
    const read = await readKeyFile(path, `${source} ${path}`)
    if (!read.ok) return read.problem
  }
  return null
}

/**
 * A key given inline (each --api-key, LLAMA_API_KEY) that could not be sent in a header, or (--api-key) written as a
 * line of the key file it moves to, on any listener: refused at the gate, since a key never goes on the command line.
 */
export function unsendableKeyProblem(args: readonly string[], env: Readonly<Record<string, string>> = {}): KeyProblem | null {
  for (const use of usesOf(args, KEY_FLAGS)) {
    if (use.value === null) continue
    const problem = keyCharacterProblem(use.value, use.flag) ?? firstOf(use.value.split(','), (k) => keyFileLineProblem(k, use.flag))
    if (problem) return problem
  }
  return env.LLAMA_API_KEY === undefined ? null : keyCharacterProblem(env.LLAMA_API_KEY, 'LLAMA_API_KEY')
}

function firstOf<T, R>(items: readonly T[], check: (item: T) => R | null): R | null {
  for (const item of items) {
    const found = check(item)
    if (found !== null) return found
  }
  return null
}
