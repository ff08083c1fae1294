import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { model } from '../helpers/paths'
import type { RecordedRequest } from './file-server'
import { sendWithRange } from './range-response'

export interface HubFile {
  readonly path: string
  readonly body: Buffer
}

export interface HubRepoSpec {
  /** "org/name" */
  readonly id: string
  readonly files: readonly HubFile[]
  /** Downloads need the stand-in's token (the API still lists the files, as on the Hub). */
  readonly gated?: boolean
}

/**
 * What the CDN does to one answer: cut it, stall it, hold it in the middle (to look at a progress bar),
 * or lie about its size ('endless': no Content-Length and zeros after the file until the client hangs up).
 */
type CdnFault =
  | { readonly cutAfter: number }
  | { readonly stallAfter: number }
  | { readonly pauseAfter: { readonly bytes: number; readonly until: Promise<void> } }
  | { readonly sizeLie: 'endless' | { readonly contentLength: number } }

interface Stored {
  readonly path: string
  readonly body: Buffer
  readonly sha256: string
  readonly gitOid: string
  readonly lfs: boolean
}

interface Repo {
  readonly id: string
  readonly commit: string
  readonly gated: boolean
  readonly files: Stored[]
}

const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex')
const gitBlobOid = (b: Buffer): string => createHash('sha1').update(`blob ${b.length}\0`).update(b).digest('hex')

/**
 * A Hugging Face Hub stand-in, two real HTTP servers: the Hub
 * (`/api/models/{repo}` with `sha` and `siblings`, `/api/models/{repo}/refs`,
 * `/api/models/{repo}/tree/{rev}` with `size` and `lfs.oid`,
 * `/{repo}/resolve/{rev}/{path}` → 302 to the CDN with `X-Repo-Commit`,
 * `X-Linked-Size`, `X-Linked-Etag`; gated repos answer 401 without the token)
 * and a CDN on another port (another host, so credentials must not follow)
 * that honours Range and can cut or stall a file's next answer.
 */
export class HfHubStandIn {
  readonly token = 'hf_standInToken0123456789'
  readonly requests: RecordedRequest[] = []
  private readonly repos = new Map<string, Repo>()
  private readonly cdnFaults = new Map<string, CdnFault[]>()
  private readonly cdnOverride = new Map<string, Buffer>()
  private readonly stalled = new Set<ServerResponse>()
  private hub: Server | null = null
  private cdn: Server | null = null
  origin = ''
  cdnOrigin = ''

  addRepo(spec: HubRepoSpec): this {
    const files = spec.files.map((f) => ({
      path: f.path,
      body: f.body,
      sha256: sha256(f.body),
      gitOid: gitBlobOid(f.body),
      lfs: f.path.endsWith('.gguf'),
    }))
    const commit = createHash('sha1')
      .update(spec.id)
      .update(files.map((f) => f.sha256).join())
      .digest('hex')
    this.repos.set(spec.id, { id: spec.id, commit, gated: spec.gated ?? false, files })
    return this
  }

  repo(id: string): { commit: string; files: readonly { path: string; sha256: string; size: number }[] } {
    const r = this.repos.get(id)
    if (!r) throw new Error(`no repo ${id} in the stand-in`)
    return { commit: r.commit, files: r.files.map((f) => ({ path: f.path, sha256: f.sha256, size: f.body.length })) }
  }

  /** The CDN's next answer for this file is cut (or stalls, or is held until a promise resolves) after so many bytes. */
  faultNext(repo: string, path: string, fault: CdnFault): void {
    const key = this.fileOf(repo, path).sha256
    this.cdnFaults.set(key, [...(this.cdnFaults.get(key) ?? []), fault])
  }

  /** Ends every stalled CDN answer by cutting its connection (the client then resumes, or gives up). */
  releaseStalls(): void {
    for (const res of this.stalled) res.socket?.destroy()
    this.stalled.clear()
  }

  /** The CDN serves other bytes for this file than its LFS oid says (a damaged mirror). */
  corrupt(repo: string, path: string, body: Buffer): void {
    this.cdnOverride.set(this.fileOf(repo, path).sha256, body)
  }

  async start(): Promise<this> {
    this.cdn = createServer((req, res) => this.serveCdn(req, res))
    this.hub = createServer((req, res) => this.serveHub(req, res))
    this.cdnOrigin = await listen(this.cdn)
    this.origin = await listen(this.hub)
    return this
  }

  close(): Promise<void> {
    const stop = (s: Server | null): Promise<void> =>
      new Promise((resolve) => {
        if (!s) return resolve()
        s.closeAllConnections()
        s.close(() => resolve())
      })
    return Promise.all([stop(this.hub), stop(this.cdn)]).then(() => undefined)
  }

  private fileOf(repo: string, path: string): Stored {
    const f = this.repos.get(repo)?.files.find((x) => x.path === path)
    if (!f) throw new Error(`no file ${repo}/${path} in the stand-in`)
    return f
  }

  private serveHub(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x')
    const path = decodeURIComponent(url.pathname)
    this.requests.push({ path, headers: req.headers })
    const json = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers })
      res.end(JSON.stringify(body))
    }
    const api = /^\/api\/models\/([^/]+\/[^/]+)(?:\/(refs|tree)(?:\/([^/]+))?)?\/?$/.exec(path)
    if (api) {
      const repo = this.repos.get(api[1] ?? '')
      if (!repo) return json(404, { error: 'Repository not found' }, { 'x-error-code': 'RepoNotFound' })
      if (api[2] === 'refs')
        return json(200, { branches: [{ name: 'main', ref: 'refs/heads/main', targetCommit: repo.commit }], converts: [], tags: [] })
      if (api[2] === 'tree') {
        if (api[3] !== 'main' && api[3] !== repo.commit)
          return json(404, { error: `Invalid rev id: ${api[3]}` }, { 'x-error-code': 'RevisionNotFound' })
        return json(
          200,
          repo.files.map((f) => ({
            type: 'file',
            oid: f.gitOid,
            size: f.body.length,
            path: f.path,
            ...(f.lfs ? { lfs: { oid: f.sha256, size: f.body.length, pointerSize: 134 } } : {}),
          })),
        )
      }
      return json(200, {
        _id: repo.commit.slice(0, 24),
        id: repo.id,
        modelId: repo.id,
        sha: repo.commit,
        gated: repo.gated ? 'manual' : false,
        private: false,
        tags: ['gguf'],
        siblings: repo.files.map((f) => ({ rfilename: f.path })),
      })
    }
    const resolve = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(path)
    if (resolve) {
      const repo = this.repos.get(resolve[1] ?? '')
      const file = repo?.files.find((f) => f.path === resolve[3])
      if (!repo || !file || (resolve[2] !== 'main' && resolve[2] !== repo.commit))
        return json(404, { error: 'Entry not found' }, { 'x-error-code': 'EntryNotFound' })
      if (repo.gated && req.headers.authorization !== `Bearer ${this.token}`) {
        return json(
          401,
          {
            error: `Access to model ${repo.id} is restricted. You must have access to it and be authenticated to access it. Please log in.`,
          },
          { 'x-error-code': 'GatedRepo' },
        )
      }
      const common = { 'x-repo-commit': repo.commit, etag: file.lfs ? `"${file.sha256}"` : `"${file.gitOid}"` }
      if (!file.lfs) return sendWithRange(req, res, { body: file.body, etag: common.etag }, { headers: { 'x-repo-commit': repo.commit } })
      res.writeHead(302, {
        ...common,
        location: `${this.cdnOrigin}/cdn/${file.sha256}?signed=1`,
        'x-linked-size': String(file.body.length),
        'x-linked-etag': `"${file.sha256}"`,
        'content-length': '0',
      })
      return void res.end()
    }
    json(404, { error: 'not found' })
  }

  private serveCdn(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://x')
    this.requests.push({ path: `cdn:${url.pathname}`, headers: req.headers })
    const oid = /^\/cdn\/([0-9a-f]{64})$/.exec(url.pathname)?.[1]
    const file = oid ? [...this.repos.values()].flatMap((r) => r.files).find((f) => f.sha256 === oid) : undefined
    if (!oid || !file) {
      res.writeHead(404)
      return void res.end()
    }
    const fault = req.method === 'HEAD' ? undefined : this.cdnFaults.get(oid)?.shift()
    if (fault && 'stallAfter' in fault) this.stalled.add(res)
    sendWithRange(req, res, { body: this.cdnOverride.get(oid) ?? file.body, etag: `"${oid}"` }, fault ?? {})
  }
}

async function listen(s: Server): Promise<string> {
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`
}

const fixture = (name: string): Buffer => readFileSync(model(name))

/** The one-click recipe's two repos, served with the tiny fixtures in their place (the real files are 20 GB and 0.5 GB). */
export function recipeStandInRepos(): HubRepoSpec[] {
  return [
    { id: 'unsloth/Qwen3.6-35B-A3B-GGUF', files: [{ path: 'Qwen3.6-35B-A3B-Q4_K_M.gguf', body: fixture('tiny-target.gguf') }] },
    { id: 'unsloth/Qwen3.5-0.8B-GGUF', files: [{ path: 'Qwen3.5-0.8B-Q4_K_M.gguf', body: fixture('tiny-draft-qwen35.gguf') }] },
  ]
}

/**
 * The tiny fixture models as Hub repos: `test-org/Tiny-GGUF` (Q4_K_M, IQ4_XS,
 * a README), `test-org/Tiny-Split-GGUF` (one model in two parts; the halves
 * of the file's bytes, not a loadable split), `test-org/Gated-GGUF`.
 */
export function tinyFixtureRepos(): HubRepoSpec[] {
  const target = fixture('tiny-target.gguf')
  const half = Math.floor(target.length / 2)
  return [
    {
      id: 'test-org/Tiny-GGUF',
      files: [
        { path: 'README.md', body: Buffer.from('# Tiny GGUF\n') },
        { path: 'tiny-target-Q4_K_M.gguf', body: target },
        { path: 'tiny-target-IQ4_XS.gguf', body: fixture('tiny-target-iq.gguf') },
      ],
    },
    {
      id: 'test-org/Tiny-Split-GGUF',
      files: [
        { path: 'Q4_K_M/tiny-target-Q4_K_M-00001-of-00002.gguf', body: target.subarray(0, half) },
        { path: 'Q4_K_M/tiny-target-Q4_K_M-00002-of-00002.gguf', body: target.subarray(half) },
        { path: 'tiny-target-Q8_0.gguf', body: fixture('tiny-draft.gguf') },
      ],
    },
    { id: 'test-org/Gated-GGUF', gated: true, files: [{ path: 'tiny-draft-Q4_K_M.gguf', body: fixture('tiny-draft.gguf') }] },
  ]
}

/** A started Hub stand-in serving the tiny fixture repos (and `extra`), for a test file's beforeAll. */
export async function startTinyHub(extra: readonly HubRepoSpec[] = []): Promise<HfHubStandIn> {
  const hub = new HfHubStandIn()
  for (const r of [...tinyFixtureRepos(), ...extra]) hub.addRepo(r)
  await hub.start()
  return hub
}
