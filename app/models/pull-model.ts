import { stat } from 'node:fs/promises'
import { downloadFile, isDownloadError } from '../lib/download'
import { hubCacheDir, hubEndpoint, hubToken } from './hf-env'
import { linkSnapshot, repoCache, writeRef } from './hf-cache'
import { authHeaders, checkRepoId, fetchRepoInfo, resolveUrl } from './hub-client'
import { ModelsError } from './models-error'
import { pickGguf } from './pick-gguf'

type Env = Readonly<Record<string, string | undefined>>

export interface PullProgress {
  /** The repo path of the part being downloaded. */
  readonly file: string
  /** Bytes of the whole model so far (every part), and its size. */
  readonly bytes: number
  readonly total: number
  readonly rateBps: number
}

export interface PullOptions {
  /** "org/name" */
  readonly repo: string
  readonly quant?: string | null
  readonly file?: string | null
  readonly env?: Env
  readonly homedir?: string
  readonly platform?: NodeJS.Platform
  readonly signal?: AbortSignal
  readonly onProgress?: (p: PullProgress) => void
}

export interface PulledPart {
  readonly file: string
  readonly path: string
  readonly sha256: string
  readonly sizeBytes: number
}

export interface PullResult {
  readonly repo: string
  readonly commit: string
  /** The first part's repo path and its snapshot path (what `-m` takes). */
  readonly file: string
  readonly path: string
  readonly sizeBytes: number
  readonly sha256: string
  readonly parts: readonly PulledPart[]
  /** Every part was already in the cache. */
  readonly cached: boolean
}

/** "org/name[:quant]" → its parts. */
export function parseModelRef(ref: string): { repo: string; quant: string | null } {
  const i = ref.indexOf(':')
  const repo = i < 0 ? ref : ref.slice(0, i)
  const quant = i < 0 ? null : ref.slice(i + 1).trim() || null
  checkRepoId(repo)
  return { repo, quant }
}

const exists = async (path: string, size: number): Promise<boolean> => (await stat(path).catch(() => null))?.size === size

/**
 * Pulls one GGUF model (every part of a split set) from the Hub into the
 * Hugging Face cache, verified against its LFS sha256, resuming any
 * `.incomplete` blob. The snapshot links appear only once every part is in.
 */
export async function pullModel(opts: PullOptions): Promise<PullResult> {
  const env = opts.env ?? process.env
  const access = { endpoint: hubEndpoint(env), token: hubToken(env), ...(opts.signal ? { signal: opts.signal } : {}) }
  const info = await fetchRepoInfo(access, opts.repo)
  const model = pickGguf(opts.repo, info.files, opts.quant ?? null, opts.file ?? null)
  const cache = repoCache(hubCacheDir(env, opts.homedir, opts.platform), opts.repo)
  let before = 0
  let cached = true
  for (const part of model.parts) {
    const sha = part.sha256
    if (!sha)
      throw new ModelsError(
        `The Hub gives no sha256 for ${opts.repo}/${part.path}, so it cannot be verified; download it by hand or pick another file.`,
        'hub',
      )
    if (!(await exists(cache.blob(sha), part.size))) {
      cached = false
      const base = before
      try {
        await downloadFile({
          url: resolveUrl(access.endpoint, opts.repo, info.commit, part.path),
          dest: cache.blob(sha),
          partPath: cache.incomplete(sha),
          headers: { 'user-agent': 'llama-tray', ...authHeaders(access.token) },
          expectedSha256: sha,
          expectedSize: part.size,
          retries: 3,
          ...(opts.signal ? { signal: opts.signal } : {}),
          onProgress: (p) => opts.onProgress?.({ file: part.path, bytes: base + p.bytes, total: model.sizeBytes, rateBps: p.rateBps }),
        })
      } catch (err) {
        if (isDownloadError(err) && err.kind === 'http' && (err.status === 401 || err.status === 403)) {
          throw new ModelsError(
            access.token
              ? `${opts.repo} is gated and HF_TOKEN may not download it; accept its terms on ${access.endpoint}/${opts.repo} with the ` +
                  `token's account and try again.`
              : `${opts.repo} is gated: accept its terms on ${access.endpoint}/${opts.repo}, then set HF_TOKEN to a token of that ` +
                  `account and try again.`,
            'gated',
          )
        }
        throw err
      }
    }
    before += part.size
  }
  const parts: PulledPart[] = []
  for (const part of model.parts) {
    const path = cache.snapshot(info.commit, part.path)
    await linkSnapshot(cache.blob(part.sha256 as string), path)
    parts.push({ file: part.path, path, sha256: part.sha256 as string, sizeBytes: part.size })
  }
  await writeRef(cache, 'main', info.commit)
  const first = parts[0] as PulledPart
  return {
    repo: opts.repo,
    commit: info.commit,
    file: first.file,
    path: first.path,
    sizeBytes: model.sizeBytes,
    sha256: first.sha256,
    parts,
    cached,
  }
}
