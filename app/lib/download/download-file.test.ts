import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FileServer } from '../../../test/stand-ins/file-server'
import { DownloadError, downloadFile, getBody, type DownloadOptions, type DownloadProgress, type DownloadResult } from './index'

const body = randomBytes(256 * 1024)
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex')
const sha = sha256(body)
let server: FileServer
let other: FileServer
let dir = ''

beforeAll(async () => {
  server = await new FileServer().start()
  other = await new FileServer().start()
})
afterAll(async () => {
  await server.close()
  await other.close()
})
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'llama-tray-dl-'))
  server.files.set('/f.bin', { body, etag: '"v1"' })
  server.requests.length = 0
  other.requests.length = 0
})
afterEach(() => rm(dir, { recursive: true, force: true }))

/** A download whose listed size is `body`'s, as an API would give it for /f.bin. */
const download = (opts: Omit<DownloadOptions, 'expectedSize'> & { readonly expectedSize?: number }): Promise<DownloadResult> =>
  downloadFile({ expectedSize: body.length, ...opts })

async function failure(p: Promise<unknown>): Promise<DownloadError> {
  try {
    await p
  } catch (err) {
    expect(err).toBeInstanceOf(DownloadError)
    return err as DownloadError
  }
  throw new Error('expected the download to fail')
}

describe('downloadFile', () => {
  it('downloads, reports progress up to the total, verifies the sha256 and renames into place only at the end', async () => {
    const dest = join(dir, 'sub', 'f.bin')
    const seen: DownloadProgress[] = []
    let destSeenEarly = false
    const url = server.url('/f.bin')
    const r = await download({
      url,
      dest,
      expectedSha256: sha.toUpperCase(),
      progressIntervalMs: 0,
      onProgress: (p) => {
        seen.push(p)
        if (p.bytes < body.length && existsSync(dest)) destSeenEarly = true
      },
    })
    expect(r).toMatchObject({ path: dest, sizeBytes: body.length, sha256: sha, resumedFrom: 0, attempts: 1 })
    expect((await readFile(dest)).equals(body)).toBe(true) // Buffer.equals: toEqual walks a buffer byte by byte
    expect(destSeenEarly).toBe(false)
    expect(seen.length).toBeGreaterThan(1)
    expect(seen.at(-1)).toMatchObject({ bytes: body.length, total: body.length })
    expect(seen.every((p, i) => i === 0 || p.bytes >= seen[i - 1]!.bytes)).toBe(true)
    expect(existsSync(`${dest}.part`) || existsSync(`${dest}.part.json`)).toBe(false)
  })

  it('keeps the part of a cut download and resumes it with Range and If-Range, verifying the whole file', async () => {
    const dest = join(dir, 'f.bin')
    server.fault('/f.bin', { kind: 'cut', after: 100_000 })
    const cut = await failure(download({ url: server.url('/f.bin'), dest, expectedSha256: sha }))
    expect(cut).toMatchObject({ kind: 'cut', resumable: true })
    expect(cut.message).toMatch(/ended after \d+ of 262144 bytes; run it again to resume/)
    expect(existsSync(dest)).toBe(false)
    const have = (await stat(`${dest}.part`)).size
    expect(have).toBeGreaterThan(0)
    expect(have).toBeLessThan(body.length)

    const r = await download({ url: server.url('/f.bin'), dest, expectedSha256: sha })
    expect(r.resumedFrom).toBe(have)
    expect((await readFile(dest)).equals(body)).toBe(true)
    const resume = server.requestsTo('/f.bin').at(-1)!
    expect(resume.headers.range).toBe(`bytes=${have}-`)
    expect(resume.headers['if-range']).toBe('"v1"')
  })

  it('resumes by itself after a cut when retries allow it', async () => {
    server.fault('/f.bin', { kind: 'cut', after: 50_000 })
    server.fault('/f.bin', { kind: 'cut', after: 50_000 })
    const r = await download({ url: server.url('/f.bin'), dest: join(dir, 'f.bin'), expectedSha256: sha, retries: 2 })
    expect(r.attempts).toBe(3)
    expect((await readFile(join(dir, 'f.bin'))).equals(body)).toBe(true)
  })

  it('restarts cleanly when a Range request is answered with the whole file (200)', async () => {
    const dest = join(dir, 'f.bin')
    await writeFile(`${dest}.part`, body.subarray(0, 1000))
    server.fault('/f.bin', { kind: 'ignore-range' })
    const r = await download({ url: server.url('/f.bin'), dest, expectedSha256: sha })
    expect(r.resumedFrom).toBe(0)
    expect((await readFile(dest)).equals(body)).toBe(true)
  })

  it('starts over when the file changed on the server since the part was begun (If-Range no longer matches)', async () => {
    const dest = join(dir, 'f.bin')
    server.fault('/f.bin', { kind: 'cut', after: 60_000 })
    await failure(download({ url: server.url('/f.bin'), dest }))
    const v2 = randomBytes(200_000)
    server.files.set('/f.bin', { body: v2, etag: '"v2"' })
    const r = await download({ expectedSize: v2.length, url: server.url('/f.bin'), dest, expectedSha256: sha256(v2) })
    expect(r.resumedFrom).toBe(0)
    expect((await readFile(dest)).equals(v2)).toBe(true)
  })

  it('refuses a wrong digest, names both, and leaves nothing behind', async () => {
    const dest = join(dir, 'f.bin')
    const wrong = 'ab'.repeat(32)
    const err = await failure(download({ url: server.url('/f.bin'), dest, expectedSha256: wrong }))
    expect(err).toMatchObject({ kind: 'digest-mismatch', expectedSha256: wrong, actualSha256: sha, resumable: false })
    expect(err.message).toContain(wrong)
    expect(err.message).toContain(sha)
    for (const p of [dest, `${dest}.part`, `${dest}.part.json`]) expect(existsSync(p)).toBe(false)
  })

  it('follows a redirect to another host without the Authorization header, and keeps it on the same host', async () => {
    other.files.set('/cdn/f.bin', { body })
    server.redirects.set('/resolve/f.bin', other.url('/cdn/f.bin'))
    server.redirects.set('/same/f.bin', '/f.bin')
    const headers = { authorization: 'Bearer secret', 'user-agent': 'llama-tray-test' }
    await download({ url: server.url('/resolve/f.bin'), dest: join(dir, 'a.bin'), headers, expectedSha256: sha })
    expect(server.requestsTo('/resolve/f.bin')[0]!.headers.authorization).toBe('Bearer secret')
    const cdn = other.requestsTo('/cdn/f.bin')[0]!
    expect(cdn.headers.authorization).toBeUndefined()
    expect(cdn.headers['user-agent']).toBe('llama-tray-test')
    await download({ url: server.url('/same/f.bin'), dest: join(dir, 'b.bin'), headers, expectedSha256: sha })
    expect(server.requestsTo('/f.bin')[0]!.headers.authorization).toBe('Bearer secret')
  })

  it('says when a rate limit lifts, from retry-after or x-ratelimit-reset', async () => {
    server.fault('/f.bin', { kind: 'status', status: 429, headers: { 'retry-after': '120' } })
    const before = Date.now()
    const a = await failure(download({ url: server.url('/f.bin'), dest: join(dir, 'f.bin') }))
    expect(a).toMatchObject({ kind: 'rate-limited', status: 429 })
    expect(a.retryAt!.getTime()).toBeGreaterThanOrEqual(before + 119_000)
    expect(a.message).toMatch(/rate limiting downloads \(HTTP 429\); try again after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/)
    server.fault('/f.bin', { kind: 'status', status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2000000000' } })
    const b = await failure(download({ url: server.url('/f.bin'), dest: join(dir, 'f.bin') }))
    expect(b).toMatchObject({ kind: 'rate-limited', status: 403 })
    expect(b.message).toContain('2033-05-18T03:33:20Z')
  })

  it('names an HTTP error status, a name that does not resolve, and a refused connection', async () => {
    expect(await failure(download({ url: server.url('/missing'), dest: join(dir, 'x') }))).toMatchObject({ kind: 'http', status: 404 })
    const dns = await failure(download({ url: 'http://no-such-host.invalid/f.bin', dest: join(dir, 'x') }))
    expect(dns.kind).toBe('offline')
    expect(dns.message).toMatch(/no-such-host\.invalid: the name does not resolve \(no network or DNS\)/)
    const closed = await new FileServer().start()
    const url = closed.url('/f.bin')
    await closed.close()
    expect(await failure(download({ url, dest: join(dir, 'x') }))).toMatchObject({ kind: 'network' })
    expect(await failure(download({ url: 'ftp://x/y', dest: join(dir, 'x') }))).toMatchObject({ kind: 'bad-url' })
    expect(existsSync(join(dir, 'x'))).toBe(false)
  })

  it('removes the part when the disk is full, so nothing half-written stays', async () => {
    const dest = join(dir, 'f.bin')
    await symlink('/dev/full', `${dest}.part`) // every write there fails with ENOSPC
    const err = await failure(downloadFile({ url: server.url('/f.bin'), dest, expectedSize: body.length }))
    expect(err.kind).toBe('disk-full')
    expect(err.message).toMatch(/is full .*free some space and try again \(the partial file was removed\)/)
    for (const p of [dest, `${dest}.part`, `${dest}.part.json`]) expect(existsSync(p)).toBe(false)
  })

  it('stops on abort and keeps the part for a resume', async () => {
    const dest = join(dir, 'f.bin')
    const ac = new AbortController()
    server.fault('/f.bin', { kind: 'stall', after: 70_000 })
    const err = await failure(
      download({
        url: server.url('/f.bin'),
        dest,
        signal: ac.signal,
        progressIntervalMs: 0,
        onProgress: (p) => {
          if (p.bytes > 0) ac.abort()
        },
      }),
    )
    expect(err).toMatchObject({ kind: 'aborted', resumable: true })
    expect(existsSync(`${dest}.part`)).toBe(true)
    expect(existsSync(dest)).toBe(false)
  })

  it('gives up a connection that goes quiet, as resumable', async () => {
    server.fault('/f.bin', { kind: 'stall', after: 70_000 })
    const err = await failure(download({ url: server.url('/f.bin'), dest: join(dir, 'f.bin'), idleTimeoutMs: 300 }))
    expect(err).toMatchObject({ kind: 'timeout', resumable: true })
    expect((await stat(join(dir, 'f.bin.part'))).size).toBeGreaterThan(0)
  })

  it('stops a server that streams past the listed size with no Content-Length, never writing past it, and keeps nothing', async () => {
    const dest = join(dir, 'f.bin')
    server.fault('/f.bin', { kind: 'endless' })
    const ac = new AbortController()
    let largest = 0
    // The guard only stops the old behaviour (writing until the disk is full); the download must fail by itself first.
    const onProgress = (p: DownloadProgress): void => {
      largest = Math.max(largest, p.bytes)
      if (p.bytes > body.length + 1024 * 1024) ac.abort()
    }
    const err = await failure(download({ url: server.url('/f.bin'), dest, signal: ac.signal, progressIntervalMs: 0, onProgress }))
    expect(err.kind).toBe('too-large')
    expect(err.message).toBe(
      `${new URL(server.origin).host} sent more than the ${body.length} bytes listed for it for ${server.url('/f.bin')}, ` +
        'so the download was stopped and nothing was kept; try again later, and report it if it repeats.',
    )
    expect(largest).toBeLessThanOrEqual(body.length)
    for (const p of [dest, `${dest}.part`, `${dest}.part.json`]) expect(existsSync(p)).toBe(false)
  })

  it('refuses a Content-Length that differs from the listed size before writing anything', async () => {
    const dest = join(dir, 'f.bin')
    server.fault('/f.bin', { kind: 'announce', length: body.length * 4 })
    let wrote = 0
    const onProgress = (p: DownloadProgress): void => void (wrote = Math.max(wrote, p.bytes))
    const err = await failure(download({ url: server.url('/f.bin'), dest, progressIntervalMs: 0, onProgress }))
    expect(err.kind).toBe('size-mismatch')
    expect(err.message).toMatch(new RegExp(`announces ${body.length * 4} bytes for .* but ${body.length} were listed for it, so`))
    expect(wrote).toBe(0)
    for (const p of [dest, `${dest}.part`, `${dest}.part.json`]) expect(existsSync(p)).toBe(false)
  })

  it('finishes a part that is already whole (416 to its Range) without downloading again', async () => {
    const dest = join(dir, 'f.bin')
    await writeFile(`${dest}.part`, body)
    const r = await download({ url: server.url('/f.bin'), dest, expectedSha256: sha })
    expect(r).toMatchObject({ sizeBytes: body.length, resumedFrom: body.length })
    expect((await readFile(dest)).equals(body)).toBe(true)
  })
})

describe('getBody', () => {
  it('gives any status as a value, follows redirects, and throws a rate limit with its reset time', async () => {
    server.files.set('/api.json', { body: Buffer.from('{"a":1}') })
    server.redirects.set('/moved.json', '/api.json')
    const ok = await getBody({ url: server.url('/moved.json') })
    expect(ok).toMatchObject({ status: 200, url: server.url('/api.json') })
    expect(JSON.parse(ok.body.toString())).toEqual({ a: 1 })
    expect((await getBody({ url: server.url('/nope') })).status).toBe(404)
    server.fault('/api.json', { kind: 'status', status: 429, headers: { 'x-ratelimit-reset': '30' } })
    await expect(getBody({ url: server.url('/api.json') })).rejects.toMatchObject({ kind: 'rate-limited', status: 429 })
  })
})
