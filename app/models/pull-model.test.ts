import { existsSync, readdirSync } from 'node:fs'
import { lstat, mkdtemp, readFile, readlink, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { model } from '../../test/helpers/paths'
import { HfHubStandIn, startTinyHub } from '../../test/stand-ins/hf-hub'
import { DownloadError } from '../lib/download'
import { ModelsError, parseModelRef, pullModel, repoCache, type PullProgress } from './index'

let hub: HfHubStandIn
let cacheDir = ''
let env: Record<string, string> = {}

beforeAll(async () => {
  hub = await startTinyHub()
})
afterAll(() => hub.close())
beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), 'llama-tray-hf-'))
  env = { HF_ENDPOINT: hub.origin, HF_HUB_CACHE: cacheDir }
  hub.requests.length = 0
})
afterEach(() => rm(cacheDir, { recursive: true, force: true }))

async function refusal<T extends Error>(p: Promise<unknown>, type: new (...a: never[]) => T): Promise<T> {
  try {
    await p
  } catch (err) {
    expect(err).toBeInstanceOf(type)
    return err as T
  }
  throw new Error('expected a refusal')
}

/** Every file under the repo's cache folder, relative to it. */
function cacheFiles(repo: string): string[] {
  const dir = repoCache(cacheDir, repo).dir
  if (!existsSync(dir)) return []
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((e) => !e.isDirectory())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort()
}

describe('pullModel', () => {
  it('pulls the GGUF for a quant (any case) into the HF cache layout, verified, with progress, the token kept off the CDN', async () => {
    const { repo, quant } = parseModelRef('test-org/Tiny-GGUF:q4_k_m')
    const seen: PullProgress[] = []
    const r = await pullModel({ repo, quant, env: { ...env, HF_TOKEN: hub.token }, onProgress: (p) => seen.push(p) })
    const want = hub.repo(repo)
    const file = want.files.find((f) => f.path === 'tiny-target-Q4_K_M.gguf')!
    const cache = repoCache(cacheDir, repo)
    expect(r).toMatchObject({
      repo,
      commit: want.commit,
      file: 'tiny-target-Q4_K_M.gguf',
      path: cache.snapshot(want.commit, 'tiny-target-Q4_K_M.gguf'),
      sizeBytes: file.size,
      sha256: file.sha256,
      cached: false,
    })
    // Buffer.equals: toEqual walks a buffer byte by byte
    expect((await readFile(r.path)).equals(await readFile(model('tiny-target.gguf')))).toBe(true)
    expect((await lstat(r.path)).isSymbolicLink()).toBe(true)
    expect(await readlink(r.path)).toBe(join('..', '..', 'blobs', file.sha256))
    expect(await readFile(cache.ref('main'), 'utf8')).toBe(want.commit)
    expect(cacheFiles(repo)).toEqual([`blobs/${file.sha256}`, 'refs/main', `snapshots/${want.commit}/tiny-target-Q4_K_M.gguf`])
    expect(seen.at(-1)).toMatchObject({ bytes: file.size, total: file.size })
    const cdn = hub.requests.filter((q) => q.path.startsWith('cdn:'))
    expect(cdn.length).toBeGreaterThan(0)
    expect(cdn.every((q) => q.headers.authorization === undefined)).toBe(true)
    expect(hub.requests.filter((q) => q.path.includes('/resolve/')).every((q) => q.headers.authorization === `Bearer ${hub.token}`)).toBe(
      true,
    )

    hub.requests.length = 0
    const again = await pullModel({ repo, quant, env })
    expect(again).toMatchObject({ path: r.path, cached: true })
    expect(hub.requests.some((q) => q.path.startsWith('cdn:'))).toBe(false)
  })

  it('resumes a cut download from its .incomplete blob and verifies the whole file', async () => {
    const repo = 'test-org/Tiny-GGUF'
    const file = hub.repo(repo).files.find((f) => f.path === 'tiny-target-Q4_K_M.gguf')!
    // More cuts than pullModel's own retries: the first pull fails and keeps what it got.
    for (let i = 0; i < 4; i++) hub.faultNext(repo, file.path, { cutAfter: 1_000_000 })
    const cut = await refusal(pullModel({ repo, quant: 'Q4_K_M', env }), DownloadError)
    expect(cut).toMatchObject({ kind: 'cut', resumable: true })
    const incomplete = repoCache(cacheDir, repo).incomplete(file.sha256)
    const kept = (await lstat(incomplete)).size
    expect(kept).toBeGreaterThan(1_000_000)
    expect(kept).toBeLessThan(file.size)
    expect(existsSync(repoCache(cacheDir, repo).blob(file.sha256))).toBe(false)
    expect(existsSync(join(repoCache(cacheDir, repo).dir, 'snapshots'))).toBe(false)

    hub.requests.length = 0
    const r = await pullModel({ repo, quant: 'Q4_K_M', env })
    expect((await readFile(r.path)).equals(await readFile(model('tiny-target.gguf')))).toBe(true)
    const resumed = hub.requests.filter((q) => q.path.startsWith('cdn:'))
    expect(resumed).toHaveLength(1)
    expect(resumed[0]!.headers.range).toBe(`bytes=${kept}-`)
    expect(cacheFiles(repo)).not.toContainEqual(expect.stringContaining('.incomplete'))
  })

  it('refuses a file whose sha256 is not its LFS oid, and leaves no blob, snapshot or .incomplete', async () => {
    const repo = 'test-org/Tiny-GGUF'
    hub.corrupt(repo, 'tiny-target-IQ4_XS.gguf', await readFile(model('tiny-target-mtp.gguf')).then((b) => b.subarray(0, 4414592)))
    const e = await refusal(pullModel({ repo, quant: 'IQ4_XS', env }), DownloadError)
    const oid = hub.repo(repo).files.find((f) => f.path === 'tiny-target-IQ4_XS.gguf')!.sha256
    expect(e).toMatchObject({ kind: 'digest-mismatch', expectedSha256: oid })
    expect(e.message).toContain(oid)
    expect(e.message).toContain(e.actualSha256!)
    expect(cacheFiles(repo)).toEqual([])
  })

  it('stops a CDN that streams forever (no Content-Length) at the size the tree lists, and keeps nothing', async () => {
    const repo = 'test-org/Tiny-GGUF'
    const file = hub.repo(repo).files.find((f) => f.path === 'tiny-target-Q4_K_M.gguf')!
    hub.faultNext(repo, file.path, { sizeLie: 'endless' })
    const ac = new AbortController()
    let largest = 0
    // The guard only ends the old behaviour (writing until the disk is full); the pull must fail by itself first.
    const e = await refusal(
      pullModel({
        repo,
        quant: 'Q4_K_M',
        env,
        signal: ac.signal,
        onProgress: (p) => {
          largest = Math.max(largest, p.bytes)
          if (p.bytes > file.size + 1024 * 1024) ac.abort()
        },
      }),
      DownloadError,
    )
    expect(e.kind).toBe('too-large')
    const said = `sent more than the ${file.size} bytes listed for it for \\S+, so the download was stopped and nothing was kept; `
    expect(e.message).toMatch(new RegExp(`^127\\.0\\.0\\.1:\\d+ ${said}try again later, and report it if it repeats\\.$`))
    expect(largest).toBeLessThanOrEqual(file.size)
    expect(cacheFiles(repo)).toEqual([])
  })

  it.each([
    ['sub\\..\\..\\..\\x.gguf', 'holds a backslash (a folder separator on Windows)'],
    ['../x.gguf', 'climbs out with ".."'],
    ['C:x.gguf', 'starts with a drive letter'],
    ['/tmp/x.gguf', 'is an absolute path'],
    ['x\0.gguf', 'holds a NUL character'],
    ['x\u001b.gguf', 'holds a control character'],
  ])('refuses a repo whose tree lists %j, in one sentence, downloading and writing nothing', async (name, why) => {
    const repo = `test-org/Hostile-${Buffer.from(name).toString('hex')}`
    hub.addRepo({ id: repo, files: [{ path: name, body: Buffer.from('GGUF hostile') }] })
    const e = await refusal(pullModel({ repo, env }), ModelsError)
    expect(e.kind).toBe('unsafe-path')
    expect(e.message).toBe(
      `${repo} on ${hub.origin} lists a file named ${JSON.stringify(name)}, which ${why} and could be written outside the model cache, ` +
        "so nothing was downloaded; report it to the repo's owner.",
    )
    expect(readdirSync(cacheDir)).toEqual([])
    expect(hub.requests.some((q) => q.path.includes('/resolve/') || q.path.startsWith('cdn:'))).toBe(false)
  })

  it('says a gated repo needs accepted terms and HF_TOKEN, and pulls it with the token', async () => {
    const repo = 'test-org/Gated-GGUF'
    const e = await refusal(pullModel({ repo, env }), ModelsError)
    expect(e.kind).toBe('gated')
    expect(e.message).toBe(
      `${repo} is gated: accept its terms on ${hub.origin}/${repo}, then set HF_TOKEN to a token of that account and try again.`,
    )
    expect(cacheFiles(repo)).toEqual([])
    const r = await pullModel({ repo, env: { ...env, HF_TOKEN: hub.token } })
    expect((await readFile(r.path)).equals(await readFile(model('tiny-draft.gguf')))).toBe(true)
  })

  it('lists the quants a repo has when the one asked for is not there, and names a missing repo', async () => {
    const e = await refusal(pullModel({ repo: 'test-org/Tiny-GGUF', quant: 'Q2_K', env }), ModelsError)
    expect(e).toMatchObject({ kind: 'no-match', available: ['Q4_K_M', 'IQ4_XS'] })
    expect(e.message).toBe(
      'test-org/Tiny-GGUF has no Q2_K GGUF; it offers Q4_K_M, IQ4_XS (pull one of them with test-org/Tiny-GGUF:<quant>).',
    )
    const missing = await refusal(pullModel({ repo: 'test-org/Nope', env }), ModelsError)
    expect(missing.message).toBe(`No repo test-org/Nope on ${hub.origin} (or it is private: set HF_TOKEN); check the name.`)
    expect(() => parseModelRef('not a repo')).toThrow(/is not a Hugging Face repo name; write it as org\/name/)
  })

  it('pulls every part of a split model as one, linked under the folder the repo uses', async () => {
    const repo = 'test-org/Tiny-Split-GGUF'
    const r = await pullModel({ repo, quant: 'Q4_K_M', env })
    const want = hub.repo(repo)
    expect(r.parts.map((p) => p.file)).toEqual([
      'Q4_K_M/tiny-target-Q4_K_M-00001-of-00002.gguf',
      'Q4_K_M/tiny-target-Q4_K_M-00002-of-00002.gguf',
    ])
    expect(r.file).toBe('Q4_K_M/tiny-target-Q4_K_M-00001-of-00002.gguf')
    expect(r.sizeBytes).toBe(want.files[0]!.size + want.files[1]!.size)
    const joined = Buffer.concat([await readFile(r.parts[0]!.path), await readFile(r.parts[1]!.path)])
    expect(joined.equals(await readFile(model('tiny-target.gguf')))).toBe(true)
    expect(await readdir(join(repoCache(cacheDir, repo).dir, 'snapshots', want.commit, 'Q4_K_M'))).toHaveLength(2)
  })
})
