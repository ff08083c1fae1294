import { mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ServerFork } from '../contract/profile'
import { fieldSpellings, flagNamed, usesOf } from '../contract/flag-args'
import { isAlive } from './process-identity'
import { keyFileLineProblem, type KeyProblem } from './api-key-rules'

/**
 * A profile's `--api-key K` would be on llama-server's command line, which
 * every local user can read (ps, Task Manager's command-line column). The
 * supervisor writes the keys to a file only this user may read (mode 0600; on
 * Windows the home folder's per-user ACL) and passes `--api-key-file` instead;
 * the file goes when the server stops. The profile itself keeps `--api-key`:
 * the app's own requests read the key from there.
 */

const KEY_FLAGS = fieldSpellings('apiKey')
const KEY_FILE_NAME = /^api-key\.(\d+)\.txt$/
const KNOWN_FORKS: readonly ServerFork[] = ['mainline', 'ik_llama', 'buun']

/** The supervisor does not know the fork it starts: the move is made only while every fork we know takes --api-key-file. */
export function everyForkTakesKeyFile(): boolean {
  const forks = flagNamed('api-key-file').forks
  return KNOWN_FORKS.every((e) => forks.includes(e))
}

/** This supervisor's key file in the run folder (one server at a time per supervisor process). */
export function keyFilePath(runDir: string, ownerPid = process.pid): string {
  return join(runDir, `api-key.${ownerPid}.txt`)
}

/** The arguments with the keys moved to the file (null when there were none), or why they cannot be moved. */
export type HiddenKeys =
  | { readonly ok: true; readonly args: readonly string[]; readonly file: string | null }
  | { readonly ok: false; readonly problem: KeyProblem }

/**
 * The arguments with every `--api-key` replaced by one `--api-key-file`. A key never stays on the command line: one
 * the file cannot carry (llama-server skips lines that start with #; a line break would split a key; a quote is CSV
 * quoting to newer builds' --api-key), a file that cannot be written, or an engine without --api-key-file is refused
 * (the profile gate and the preflight refuse such keys first: this is the last line).
 */
export async function hideApiKeys(args: readonly string[], runDir: string): Promise<HiddenKeys> {
  const uses = usesOf(args, KEY_FLAGS)
  if (uses.length === 0) return { ok: true, args, file: null }
  if (!everyForkTakesKeyFile())
    return { ok: false, problem: { reason: 'this llama-server cannot read its key from a private file', hint: 'use --api-key-file' } }
  const missing = uses.find((u) => u.value === null)
  if (missing) return { ok: false, problem: { reason: `no key follows ${missing.flag}`, hint: `put the key right after ${missing.flag}` } }
  // llama-server splits --api-key on commas; a key file has one key per line.
  for (const use of uses) {
    for (const key of (use.value as string).split(',')) {
      const problem = /[\r\n]/.test(key)
        ? { reason: `a key in ${use.flag} holds a line break`, hint: 'put the key on one line' }
        : keyFileLineProblem(key, use.flag)
      if (problem) return { ok: false, problem }
    }
  }
  const keys = uses.flatMap((u) => (u.value as string).split(','))
  const file = keyFilePath(runDir)
  try {
    await mkdir(runDir, { recursive: true })
    await rm(file, { force: true }) // the mode applies only to a new file
    await writeFile(file, `${keys.join('\n')}\n`, { mode: 0o600, flag: 'wx' })
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message
    return {
      ok: false,
      problem: { reason: `the API key could not be written to its private file (${code})`, hint: "check the home folder's permissions" },
    }
  }
  const dropped = new Set(uses.flatMap((u) => (u.span === 2 ? [u.index, u.index + 1] : [u.index])))
  return { ok: true, args: [...args.filter((_, i) => !dropped.has(i)), '--api-key-file', file], file }
}

export async function removeKeyFile(file: string | null): Promise<void> {
  if (file !== null) await rm(file, { force: true }).catch(() => {})
}

/** Removes key files left by supervisors that died without stopping their server (their servers are reaped with the pid files). */
export async function removeStaleKeyFiles(runDir: string, alive: (pid: number) => boolean = isAlive): Promise<void> {
  let names: string[]
  try {
    names = await readdir(runDir)
  } catch {
    return
  }
  for (const name of names) {
    const owner = KEY_FILE_NAME.exec(name)?.[1]
    if (owner !== undefined && Number(owner) !== process.pid && !alive(Number(owner))) await removeKeyFile(join(runDir, name))
  }
}
