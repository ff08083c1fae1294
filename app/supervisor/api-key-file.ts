import { mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ServerFork } from '../contract/profile'
import { fieldSpellings, flagNamed, usesOf } from '../contract/flag-args'
import { isAlive } from './process-identity'

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

export interface HiddenKeys {
  readonly args: readonly string[]
  /** The file written, to remove when the server stops; null when the arguments were left as they were. */
  readonly file: string | null
  /** Why the keys stayed on the command line, for the log; null when they moved or there were none. */
  readonly note: string | null
}

/**
 * The arguments with every `--api-key` replaced by one `--api-key-file`.
 * Left as they are (with a note) when a key cannot be written as a key-file
 * line: llama-server skips lines that start with '#', a line break would split
 * a key, and a quote means CSV quoting to newer builds (a comma inside a key);
 * or when the file cannot be written.
 */
export async function hideApiKeys(args: readonly string[], runDir: string): Promise<HiddenKeys> {
  const uses = usesOf(args, KEY_FLAGS)
  if (uses.length === 0 || !everyForkTakesKeyFile()) return { args, file: null, note: null }
  if (uses.some((u) => u.value === null)) return { args, file: null, note: null } // the host guard or llama-server says what is wrong
  // llama-server splits --api-key on commas (newer builds as a CSV row, with "quoted" keys); a key file has one key per line.
  const keys = uses.flatMap((u) => (u.value as string).split(','))
  if (keys.some((k) => k.startsWith('#') || /[\r\n"]/.test(k))) {
    return {
      args,
      file: null,
      note: 'the API key stays on the command line: a key that starts with # or holds a quote or a line break cannot go in a key file',
    }
  }
  const file = keyFilePath(runDir)
  try {
    await mkdir(runDir, { recursive: true })
    await rm(file, { force: true }) // the mode applies only to a new file
    await writeFile(file, `${keys.join('\n')}\n`, { mode: 0o600, flag: 'wx' })
  } catch (err) {
    return {
      args,
      file: null,
      note: `the API key stays on the command line: cannot write ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    }
  }
  const dropped = new Set(uses.flatMap((u) => (u.span === 2 ? [u.index, u.index + 1] : [u.index])))
  return { args: [...args.filter((_, i) => !dropped.has(i)), '--api-key-file', file], file, note: null }
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
