import { createHash } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sendWithRange } from './range-response'

export interface StandInAsset {
  readonly name: string
  readonly body: Buffer
  /** The API's `digest`; default the body's real `sha256:<hex>` (null: none, as in releases before 2025). */
  readonly digest?: string | null
}

export interface StandInRelease {
  readonly tag: string
  readonly publishedAt: string
  readonly assets: readonly StandInAsset[]
}

export interface RecordedRequest {
  readonly host: 'api' | 'web'
  readonly path: string
  readonly headers: IncomingHttpHeaders
}

const REPO = '/repos/ggml-org/llama.cpp'

/**
 * GitHub's REST API for ggml-org/llama.cpp's releases, as a real HTTP server:
 * `/releases/latest`, `/releases`, `/releases/tags/{tag}` (release JSON with
 * assets' name, size, browser_download_url, digest), and a second origin, like
 * github.com, whose download URLs 302 to a CDN path (Range and ETag served).
 * `rateLimitUntil` answers the API with 403 and `x-ratelimit-remaining: 0`,
 * `x-ratelimit-reset` (epoch seconds), as GitHub does. Every request is recorded.
 */
export class GitHubReleasesStandIn {
  releases: StandInRelease[] = []
  rateLimitUntil: Date | null = null
  /** Cut the next download of an asset after this many bytes (one time). */
  readonly cutNext = new Map<string, number>()
  /** Hold the next download of an asset after this many bytes until `until` resolves (one time). */
  readonly pauseNext = new Map<string, { readonly bytes: number; readonly until: Promise<void> }>()
  /** Lie about an asset's size in every download of it: 'endless' (no Content-Length, zeros after it) or another Content-Length. */
  readonly sizeLies = new Map<string, 'endless' | { readonly contentLength: number }>()
  readonly requests: RecordedRequest[] = []
  private api: Server | null = null
  private web: Server | null = null
  apiUrl = ''
  webOrigin = ''

  async start(releases: StandInRelease[] = []): Promise<this> {
    this.releases = releases
    this.api = createServer((req, res) => this.answerApi(req, res))
    this.web = createServer((req, res) => this.answerWeb(req, res))
    this.apiUrl = await listen(this.api)
    this.webOrigin = await listen(this.web)
    return this
  }

  async close(): Promise<void> {
    await Promise.all([this.api, this.web].map((s) => new Promise<void>((r) => (s ? s.close(() => r()) : r()))))
  }

  private releaseJson(r: StandInRelease): unknown {
    return {
      tag_name: r.tag,
      name: r.tag,
      draft: false,
      prerelease: false,
      published_at: r.publishedAt,
      html_url: `${this.webOrigin}/ggml-org/llama.cpp/releases/tag/${r.tag}`,
      assets: r.assets.map((a, i) => ({
        id: i + 1,
        name: a.name,
        size: a.body.length,
        content_type: a.name.endsWith('.zip') ? 'application/zip' : 'application/gzip',
        digest: a.digest === undefined ? `sha256:${createHash('sha256').update(a.body).digest('hex')}` : a.digest,
        browser_download_url: `${this.webOrigin}/ggml-org/llama.cpp/releases/download/${r.tag}/${a.name}`,
      })),
    }
  }

  private newest(): StandInRelease | undefined {
    return [...this.releases].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt))[0]
  }

  private answerApi(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x')
    this.requests.push({ host: 'api', path: url.pathname, headers: req.headers })
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
      res.end(JSON.stringify(body))
    }
    if (this.rateLimitUntil && this.rateLimitUntil.getTime() > Date.now()) {
      return json(
        403,
        {
          message: 'API rate limit exceeded for 127.0.0.1.',
          documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
        },
        {
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(Math.ceil(this.rateLimitUntil.getTime() / 1000)),
        },
      )
    }
    const notFound = (): void => json(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' })
    if (url.pathname === `${REPO}/releases/latest`) {
      const r = this.newest()
      return r ? json(200, this.releaseJson(r)) : notFound()
    }
    if (url.pathname === `${REPO}/releases`)
      return json(
        200,
        [...this.releases].sort((a, b) => b.publishedAt.localeCompare(a.publishedAt)).map((r) => this.releaseJson(r)),
      )
    const tag = url.pathname.startsWith(`${REPO}/releases/tags/`)
      ? decodeURIComponent(url.pathname.slice(`${REPO}/releases/tags/`.length))
      : null
    const r = tag === null ? undefined : this.releases.find((x) => x.tag === tag)
    return r ? json(200, this.releaseJson(r)) : notFound()
  }

  private answerWeb(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0] ?? '/'
    this.requests.push({ host: 'web', path, headers: req.headers })
    const download = /^\/ggml-org\/llama\.cpp\/releases\/download\/([^/]+)\/([^/]+)$/.exec(path)
    if (download) {
      // github.com sends downloads to its CDN with a 302 (release-assets.githubusercontent.com).
      res.writeHead(302, { location: `${this.webOrigin}/cdn/${download[1]}/${download[2]}` })
      return void res.end()
    }
    const cdn = /^\/cdn\/([^/]+)\/([^/]+)$/.exec(path)
    const asset = cdn
      ? this.releases
          .find((r) => r.tag === decodeURIComponent(cdn[1] as string))
          ?.assets.find((a) => a.name === decodeURIComponent(cdn[2] as string))
      : undefined
    if (!asset) {
      res.writeHead(404)
      return void res.end('Not Found')
    }
    const cut = this.cutNext.get(asset.name)
    const pause = this.pauseNext.get(asset.name)
    this.cutNext.delete(asset.name)
    this.pauseNext.delete(asset.name)
    const lie = this.sizeLies.get(asset.name)
    sendWithRange(
      req,
      res,
      { body: asset.body, etag: `"${createHash('md5').update(asset.body).digest('hex')}"` },
      {
        ...(cut === undefined ? {} : { cutAfter: cut }),
        ...(pause === undefined ? {} : { pauseAfter: pause }),
        ...(lie === undefined ? {} : { sizeLie: lie }),
      },
    )
  }
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
