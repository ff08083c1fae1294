import { z } from 'zod'
import { DownloadError, getBody } from '../lib/download'
import { EngineError } from './engine-error'
import type { Release, ReleaseAsset } from './releases'

export const LLAMA_CPP_REPO = 'ggml-org/llama.cpp'
const DEFAULT_API_URL = 'https://api.github.com'

const AssetSchema = z.object({
  name: z.string(),
  size: z.number(),
  browser_download_url: z.string(),
  digest: z.string().nullable().optional(),
})
const ReleaseSchema = z.object({
  tag_name: z.string(),
  published_at: z.string().nullable().optional(),
  draft: z.boolean().optional(),
  prerelease: z.boolean().optional(),
  assets: z.array(AssetSchema),
})

export interface ReleaseClientOptions {
  /** The API's base (GitHub's convention, `GITHUB_API_URL`: Enterprise, mirrors, tests); default https://api.github.com. */
  readonly apiUrl?: string
  /** Sent as a bearer token to the API host only (never with downloads). */
  readonly token?: string
  readonly signal?: AbortSignal
  readonly timeoutMs?: number
}

export function releaseClientOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ReleaseClientOptions {
  return { apiUrl: env.GITHUB_API_URL || undefined, token: env.GITHUB_TOKEN || undefined }
}

function toRelease(raw: z.infer<typeof ReleaseSchema>): Release {
  const assets: ReleaseAsset[] = raw.assets.map((a) => {
    const digest = /^sha256:([0-9a-f]{64})$/i.exec(a.digest ?? '')
    return { name: a.name, size: a.size, url: a.browser_download_url, sha256: digest ? (digest[1] as string).toLowerCase() : null }
  })
  return { tag: raw.tag_name, publishedAt: raw.published_at ?? null, assets }
}

/** Reads llama.cpp's releases from GitHub's REST API. Failures are EngineErrors with one sentence each. */
export class ReleaseClient {
  private readonly apiUrl: string

  constructor(private readonly options: ReleaseClientOptions = {}) {
    this.apiUrl = (options.apiUrl ?? DEFAULT_API_URL).replace(/\/+$/, '')
  }

  /** The newest release, or the one named by `tag`. */
  async release(tag?: string): Promise<Release> {
    const path = tag ? `/repos/${LLAMA_CPP_REPO}/releases/tags/${encodeURIComponent(tag)}` : `/repos/${LLAMA_CPP_REPO}/releases/latest`
    const parsed = ReleaseSchema.safeParse(await this.getJson(path, tag ? `release ${tag}` : 'latest release'))
    if (!parsed.success)
      throw new EngineError(
        `${this.apiUrl} answered something that is not a GitHub release; check GITHUB_API_URL.`,
        'bad-answer',
        null,
        parsed.error.message,
      )
    return toRelease(parsed.data)
  }

  /** Recent releases, newest first (drafts left out). */
  async releases(perPage = 30): Promise<Release[]> {
    const parsed = z.array(ReleaseSchema).safeParse(await this.getJson(`/repos/${LLAMA_CPP_REPO}/releases?per_page=${perPage}`, 'releases'))
    if (!parsed.success)
      throw new EngineError(
        `${this.apiUrl} answered something that is not a list of GitHub releases; check GITHUB_API_URL.`,
        'bad-answer',
        null,
        parsed.error.message,
      )
    return parsed.data.filter((r) => !r.draft).map(toRelease)
  }

  private async getJson(path: string, what: string): Promise<unknown> {
    const url = `${this.apiUrl}${path}`
    const host = new URL(url).host
    const headers: Record<string, string> = {
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      'user-agent': 'llama-tray',
    }
    // The token goes to the API host only (getBody drops it on a redirect elsewhere).
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`
    let res
    try {
      res = await getBody({
        url,
        headers,
        signal: this.options.signal,
        timeoutMs: this.options.timeoutMs ?? 30_000,
        maxBytes: 16 * 1024 * 1024,
      })
    } catch (err) {
      if (!(err instanceof DownloadError)) throw err
      if (err.kind === 'rate-limited') {
        const at = err.retryAt ?? null
        const when = at
          ? `after ${at.toISOString().slice(11, 16)} UTC (in ${Math.max(1, Math.ceil((at.getTime() - Date.now()) / 60_000))} min)`
          : 'in an hour'
        const tokenHint = this.options.token ? '' : ' (60 requests an hour without a token; set GITHUB_TOKEN to raise it)'
        throw new EngineError(`GitHub's API rate limit is used up${tokenHint}: try again ${when}.`, 'rate-limited', at, err.message)
      }
      throw new EngineError(
        err.message,
        err.kind === 'offline' || err.kind === 'network' || err.kind === 'timeout' ? 'offline' : 'http',
        null,
        err.detail ?? null,
      )
    }
    const text = res.body.toString('utf8')
    if (res.status === 404)
      throw new EngineError(
        `llama.cpp has no ${what} on ${host}: check the tag (the releases are listed at https://github.com/${LLAMA_CPP_REPO}/releases).`,
        'not-found',
      )
    if (res.status < 200 || res.status >= 300)
      throw new EngineError(`${host} answered ${res.status} for llama.cpp's ${what}: try again later.`, 'http', null, text.slice(0, 500))
    try {
      return JSON.parse(text) as unknown
    } catch (err) {
      throw new EngineError(
        `${host} answered llama.cpp's ${what} with something that is not JSON; check GITHUB_API_URL.`,
        'bad-answer',
        null,
        (err as Error).message,
      )
    }
  }
}
