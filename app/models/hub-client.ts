import { getBody } from '../lib/download'
import { unsafeHubPathReason } from './hub-path'
import { ModelsError } from './models-error'

/** One file of a repo at a commit; `sha256` is the LFS oid (null for small non-LFS files). */
export interface HubFileInfo {
  readonly path: string
  readonly size: number
  readonly sha256: string | null
}

export interface HubRepoInfo {
  readonly repo: string
  readonly commit: string
  readonly files: readonly HubFileInfo[]
}

export interface HubAccess {
  readonly endpoint: string
  readonly token: string | null
  readonly signal?: AbortSignal
}

const REPO_ID = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/

export function checkRepoId(repo: string): void {
  if (!REPO_ID.test(repo) || repo.includes('..')) {
    throw new ModelsError(`"${repo}" is not a Hugging Face repo name; write it as org/name, e.g. ggml-org/Qwen3-0.6B-GGUF.`, 'bad-repo')
  }
}

export const authHeaders = (token: string | null): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {})

async function apiJson(access: HubAccess, path: string, repo: string): Promise<unknown> {
  const r = await getBody({
    url: `${access.endpoint}${path}`,
    headers: { accept: 'application/json', ...authHeaders(access.token) },
    ...(access.signal ? { signal: access.signal } : {}),
  })
  if (r.status === 200) {
    try {
      return JSON.parse(r.body.toString('utf8'))
    } catch {
      throw new ModelsError(`${access.endpoint} did not answer with JSON for ${repo}; check HF_ENDPOINT.`, 'hub')
    }
  }
  if (r.status === 404 || (r.status === 401 && !access.token)) {
    throw new ModelsError(`No repo ${repo} on ${access.endpoint} (or it is private: set HF_TOKEN); check the name.`, 'not-found')
  }
  if (r.status === 401 || r.status === 403)
    throw new ModelsError(
      `${access.endpoint} refused HF_TOKEN for ${repo} (HTTP ${r.status}); check the token and that it may read this repo.`,
      'gated',
    )
  throw new ModelsError(`${access.endpoint} answered HTTP ${r.status} for ${repo}; try again later.`, 'hub')
}

/**
 * The repo's current commit and its files with sizes and LFS sha256, from the Hub API. A file
 * name that is not a plain relative path in both path flavours, or a file with no size, refuses
 * the whole listing: such a tree is not one the Hub makes, and its names are joined into the cache.
 */
export async function fetchRepoInfo(access: HubAccess, repo: string): Promise<HubRepoInfo> {
  checkRepoId(repo)
  const info = (await apiJson(access, `/api/models/${repo}`, repo)) as { sha?: unknown }
  if (typeof info.sha !== 'string' || !/^[0-9a-f]{40}$/.test(info.sha))
    throw new ModelsError(`${access.endpoint} gave no commit for ${repo}; check HF_ENDPOINT.`, 'hub')
  const tree = await apiJson(access, `/api/models/${repo}/tree/${info.sha}?recursive=true`, repo)
  if (!Array.isArray(tree)) throw new ModelsError(`${access.endpoint} gave no file list for ${repo}; check HF_ENDPOINT.`, 'hub')
  const files: HubFileInfo[] = []
  for (const item of tree as { type?: unknown; path?: unknown; size?: unknown; lfs?: { oid?: unknown; size?: unknown } }[]) {
    if (item.type !== 'file') continue
    if (typeof item.path !== 'string') {
      throw new ModelsError(`${access.endpoint} lists a nameless file in ${repo}; check HF_ENDPOINT.`, 'hub')
    }
    const why = unsafeHubPathReason(item.path)
    if (why) {
      const listed = `${repo} on ${access.endpoint} lists a file named ${JSON.stringify(item.path)}, which ${why}`
      const outcome = "and could be written outside the model cache, so nothing was downloaded; report it to the repo's owner."
      throw new ModelsError(`${listed} ${outcome}`, 'unsafe-path')
    }
    const oid = typeof item.lfs?.oid === 'string' && /^[0-9a-f]{64}$/.test(item.lfs.oid) ? item.lfs.oid : null
    const size = isSize(item.lfs?.size) ? item.lfs.size : isSize(item.size) ? item.size : null
    if (size === null) {
      const file = `${repo}/${item.path}`
      throw new ModelsError(`${access.endpoint} gives no size for ${file}, so its download cannot be checked; check HF_ENDPOINT.`, 'hub')
    }
    files.push({ path: item.path, size, sha256: oid })
  }
  return { repo, commit: info.sha, files }
}

const isSize = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0

/** A file's download URL at a commit (the Hub redirects it to its CDN). */
export const resolveUrl = (endpoint: string, repo: string, commit: string, path: string): string =>
  `${endpoint}/${repo}/resolve/${commit}/${path.split('/').map(encodeURIComponent).join('/')}`
