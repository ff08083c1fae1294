import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { has, lastValue, spellingsOf } from '../contract/flag-args'
import { llamaCacheDir, repoFolderName } from '../models'
import type { Diagnosis } from './diagnosis'

type Env = Readonly<Record<string, string | undefined>>

const HF = spellingsOf('hf-repo')
const OFFLINE = spellingsOf('offline')

async function cachedSnapshot(repo: string, env: Env): Promise<boolean> {
  const snapshots = join(llamaCacheDir(env), repoFolderName(repo), 'snapshots')
  for (const commit of await readdir(snapshots).catch(() => [] as string[])) {
    const files = await readdir(join(snapshots, commit), { recursive: true }).catch(() => [] as string[])
    if (files.some((f) => String(f).endsWith('.gguf'))) return true
  }
  return false
}

/**
 * A `-hf` launch that failed to fetch its model: the fix names the exact
 * `llama-tray models pull` command, and `--offline` when the cache already
 * holds the model (llama-server otherwise asks the Hub at every start, and a
 * changed ETag deletes and downloads the file again).
 */
export async function hfFailure(d: Diagnosis, args: readonly string[], env: Env): Promise<Diagnosis> {
  const ref = lastValue(args, HF)
  if (ref === null) return d
  const generic = d.kind === 'load-failed' // "failed to load model ''": nothing was fetched
  if (d.kind !== 'download-failed' && !generic) return d
  const repo = ref.split(':')[0] as string
  const pull = `llama-tray models pull ${ref}`
  const offline = !has(args, OFFLINE) && (await cachedSnapshot(repo, env))
  const reason = generic ? `llama-server could not download ${ref} for -hf` : d.reason
  const hint = offline
    ? `the model is already in the cache: add --offline to the profile, or run ${pull} and use -m with the path it prints`
    : `run ${pull} (resumes and verifies it), then use -m with the path it prints`
  return { ...d, kind: 'download-failed', reason, hint: generic ? `the log says what the Hub answered. ${hint}` : hint }
}
