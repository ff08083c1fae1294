import type { Hash } from 'node:crypto'
import { createWriteStream, type WriteStream } from 'node:fs'
import { mkdir, rename } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import { dirname } from 'node:path'
import { performance } from 'node:perf_hooks'
import { DownloadError, isDownloadError } from './download-error'
import { abortedError, openResponse } from './open-response'
import { hashOfPart, partSize, readPartMeta, removePart, resetPart, writePartMeta } from './part-file'
import { isRateLimited, rateLimitResetAt } from './rate-limit'

export interface DownloadProgress {
  /** Bytes in the file so far (a resumed part included). */
  readonly bytes: number
  /** The whole size, when the server or the caller said. */
  readonly total: number | null
  /** Bytes per second received in this attempt. */
  readonly rateBps: number
}

export interface DownloadOptions {
  readonly url: string
  /** The finished file; appears only once complete and verified (atomic rename). */
  readonly dest: string
  /** Where the download grows and resumes from (default `<dest>.part`). */
  readonly partPath?: string
  /** Sent with every request; credentials (Authorization, Cookie) only to the URL's own host. */
  readonly headers?: Readonly<Record<string, string>>
  /** Lowercase hex sha256 the content must have; a mismatch deletes the part. */
  readonly expectedSha256?: string
  /**
   * The size an API listed for the file (a release asset's `size`, the Hub's LFS size). Required: a
   * server that sends more is stopped the moment it passes it, and one that announces another size
   * is refused before a byte is written (a body with no Content-Length could otherwise never end).
   */
  readonly expectedSize: number
  readonly signal?: AbortSignal
  readonly onProgress?: (p: DownloadProgress) => void
  /** Resumes after a cut or a stall this many times before giving up (default 0). */
  readonly retries?: number
  /** Ms without a byte before a stalled connection is given up (default 30 s). */
  readonly idleTimeoutMs?: number
  readonly maxRedirects?: number
  /** The least ms between two progress calls (default 100; the last one always comes). */
  readonly progressIntervalMs?: number
}

export interface DownloadResult {
  readonly path: string
  readonly sizeBytes: number
  readonly sha256: string
  /** Bytes that were already in the part when the last attempt started. */
  readonly resumedFrom: number
  readonly attempts: number
}

/** Downloads `url` to `dest`, resuming a previous part; see ./index.ts for the contract. */
export async function downloadFile(opts: DownloadOptions): Promise<DownloadResult> {
  const retries = opts.retries ?? 0
  for (let attempt = 1; ; attempt++) {
    try {
      return { ...(await attemptOnce(opts)), attempts: attempt }
    } catch (err) {
      const again = isDownloadError(err) && (err.kind === 'cut' || err.kind === 'timeout') && attempt <= retries && !opts.signal?.aborted
      if (!again) throw err
    }
  }
}

const part = (opts: DownloadOptions): string => opts.partPath ?? `${opts.dest}.part`

async function attemptOnce(opts: DownloadOptions): Promise<Omit<DownloadResult, 'attempts'>> {
  const partPath = part(opts)
  await mkdir(dirname(partPath), { recursive: true })
  await mkdir(dirname(opts.dest), { recursive: true })
  let have = await partSize(partPath)
  const meta = have > 0 ? await readPartMeta(partPath) : null
  if (have > 0 && meta?.url !== undefined && meta.url !== opts.url) have = await restart(partPath)
  if (have > opts.expectedSize) have = await restart(partPath)
  if (have === opts.expectedSize && have > 0) {
    return finish(opts, partPath, await hashOfPart(partPath, have), have, have)
  }

  // Two rounds at most: a Range answer that does not fit (wrong start, 416) restarts once from byte 0.
  for (let round = 0; round < 2; round++) {
    const headers: Record<string, string> = { 'accept-encoding': 'identity', ...opts.headers }
    if (have > 0) {
      headers.range = `bytes=${have}-`
      if (meta?.validator) headers['if-range'] = meta.validator
    }
    const { res } = await openResponse({
      url: opts.url,
      headers,
      signal: opts.signal,
      maxRedirects: opts.maxRedirects ?? 10,
      idleTimeoutMs: opts.idleTimeoutMs ?? 30_000,
    })
    const status = res.statusCode ?? 0
    if (status === 416 && have > 0) {
      res.resume()
      const whole = /^bytes \*\/(\d+)$/.exec(res.headers['content-range'] ?? '')
      if (whole && Number(whole[1]) === have) return finish(opts, partPath, await hashOfPart(partPath, have), have, have)
      have = await restart(partPath)
      continue
    }
    if (status >= 400 || status < 200 || status === 204) throw statusError(res, status, opts)
    if (status === 206) {
      const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(res.headers['content-range'] ?? '')
      if (!range || Number(range[1]) !== have) {
        res.destroy()
        have = await restart(partPath)
        continue
      }
    } else if (have > 0) {
      // 200 to a Range request: the server ignored it or the file changed (If-Range); start over.
      have = await restart(partPath)
    }
    const announced = announcedSizes(res, status, have)
    const wrong = announced.find((n) => n !== opts.expectedSize)
    if (wrong !== undefined) {
      res.destroy()
      await removePart(partPath)
      const why = `${hostOf(opts.url)} announces ${wrong} bytes for ${opts.url} but ${opts.expectedSize} were listed for it`
      throw new DownloadError(`${why}, so nothing was downloaded; the file changed on the server or the server errs, try again later.`, {
        kind: 'size-mismatch',
        url: opts.url,
      })
    }
    if (have === 0) {
      const validator =
        (res.headers.etag && !res.headers.etag.startsWith('W/') ? res.headers.etag : null) ?? res.headers['last-modified'] ?? null
      await guardDisk(() => writePartMeta(partPath, { url: opts.url, validator }), opts, partPath)
    }
    const hash = await hashOfPart(partPath, have)
    const bytes = await receive(res, opts, partPath, hash, have, announced.length > 0)
    if (bytes < opts.expectedSize) {
      // A body with no length that ends early looks complete to HTTP; it is a cut all the same.
      const msg = `The connection to ${hostOf(opts.url)} ended after ${bytes} of ${opts.expectedSize} bytes; run it again to resume there.`
      throw new DownloadError(msg, { kind: 'cut', url: opts.url, resumable: true })
    }
    return finish(opts, partPath, hash, bytes, have)
  }
  throw new DownloadError(`${hostOf(opts.url)} does not answer Range requests consistently for ${opts.url}; try again later.`, {
    kind: 'http',
    url: opts.url,
  })
}

async function restart(partPath: string): Promise<number> {
  await resetPart(partPath)
  return 0
}

/** The whole file's sizes the answer states: a 206's Content-Range total, and Content-Length (plus the part, for a 206). */
function announcedSizes(res: IncomingMessage, status: number, have: number): number[] {
  const sizes: number[] = []
  const whole = /\/(\d+)$/.exec(res.headers['content-range'] ?? '')
  if (status === 206 && whole) sizes.push(Number(whole[1]))
  const header = res.headers['content-length']
  if (header !== undefined && /^\d+$/.test(header)) sizes.push((status === 206 ? have : 0) + Number(header))
  return sizes
}

/**
 * Streams the body into the part, hashing it; resolves with the bytes in the part. A chunk that
 * would take the part past `expectedSize` is never written: the answer is dropped and the part removed.
 */
async function receive(
  res: IncomingMessage,
  opts: DownloadOptions,
  partPath: string,
  hash: Hash,
  start: number,
  announced: boolean,
): Promise<number> {
  const total = opts.expectedSize
  let bytes = start
  const t0 = performance.now()
  let lastReport = -Infinity
  const interval = opts.progressIntervalMs ?? 100
  const report = (force: boolean): void => {
    if (!opts.onProgress) return
    const now = performance.now()
    if (!force && now - lastReport < interval) return
    lastReport = now
    const secs = (now - t0) / 1000
    opts.onProgress({ bytes, total, rateBps: secs > 0 ? (bytes - start) / secs : 0 })
  }
  const out = createWriteStream(partPath, { flags: start > 0 ? 'a' : 'w' })
  let writeError: NodeJS.ErrnoException | null = null
  out.on('error', (e: NodeJS.ErrnoException) => (writeError = e))
  // The request's socket timeout ends a quiet body with a plain reset; remember that it was the timeout.
  let timedOut = false
  res.socket?.once('timeout', () => (timedOut = true))
  const onAbort = (): void => void res.destroy()
  opts.signal?.addEventListener('abort', onAbort, { once: true })
  let failure: NodeJS.ErrnoException | null = null
  let overflow = false
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      if (writeError) break
      if (bytes + chunk.length > total) {
        overflow = true
        break
      }
      hash.update(chunk)
      bytes += chunk.length
      report(false)
      if (!out.write(chunk)) await drained(out)
    }
  } catch (err) {
    failure = err as NodeJS.ErrnoException
  } finally {
    opts.signal?.removeEventListener('abort', onAbort)
  }
  // What arrived before a cut is flushed to the part (a stream pipeline would drop its buffer), so the resume starts there.
  await closeStream(out)
  if (overflow) {
    res.destroy()
    await removePart(partPath)
    const whose = announced ? 'it announced' : 'listed for it'
    const what = `${hostOf(opts.url)} sent more than the ${total} bytes ${whose} for ${opts.url}`
    throw new DownloadError(`${what}, so the download was stopped and nothing was kept; try again later, and report it if it repeats.`, {
      kind: 'too-large',
      url: opts.url,
    })
  }
  if (failure || writeError || opts.signal?.aborted) {
    res.destroy()
    const cause =
      writeError ?? (timedOut ? Object.assign(new Error('idle timeout'), { code: 'ETIMEDOUT' }) : (failure ?? new Error('aborted')))
    throw await bodyError(cause, opts, partPath, bytes, total)
  }
  report(true)
  return bytes
}

async function bodyError(
  err: NodeJS.ErrnoException,
  opts: DownloadOptions,
  partPath: string,
  bytes: number,
  total: number,
): Promise<DownloadError> {
  if (opts.signal?.aborted || err.name === 'AbortError') return abortedError(opts.url)
  if (err.code === 'ENOSPC' || err.code === 'EDQUOT') {
    await removePart(partPath).catch(() => undefined)
    return diskFull(opts, err)
  }
  if (err.code === 'ETIMEDOUT') {
    return new DownloadError(
      `${hostOf(opts.url)} sent nothing for ${Math.round((opts.idleTimeoutMs ?? 30_000) / 1000)} s after ${bytes} bytes; run it again ` +
        `to resume from there.`,
      { kind: 'timeout', url: opts.url, resumable: true, detail: err.code },
    )
  }
  if (err.syscall === 'write' || err.syscall === 'open') {
    return new DownloadError(`Cannot write ${partPath} (${err.code ?? err.message}); check the folder's permissions.`, {
      kind: 'io',
      url: opts.url,
      detail: err.message,
    })
  }
  const msg = `The connection to ${hostOf(opts.url)} ended after ${bytes} of ${total} bytes; run it again to resume from there.`
  return new DownloadError(msg, { kind: 'cut', url: opts.url, resumable: true, detail: err.code ?? err.message })
}

async function guardDisk<T>(fn: () => Promise<T>, opts: DownloadOptions, partPath: string): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    const e = err as NodeJS.ErrnoException
    if (e.code === 'ENOSPC' || e.code === 'EDQUOT') {
      await removePart(partPath).catch(() => undefined)
      throw diskFull(opts, e)
    }
    throw err
  }
}

function diskFull(opts: DownloadOptions, err: NodeJS.ErrnoException): DownloadError {
  const need = ` (it needs ${(opts.expectedSize / 1e9).toFixed(1)} GB)`
  return new DownloadError(
    `The disk holding ${dirname(part(opts))} is full${need}; free some space and try again (the partial file was removed).`,
    { kind: 'disk-full', url: opts.url, detail: err.code },
  )
}

/** Resolves when the stream can take more, or has failed (its error is seen by the caller). */
function drained(out: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      out.off('drain', done)
      out.off('close', done)
      resolve()
    }
    out.once('drain', done)
    out.once('close', done)
  })
}

/** Ends the stream, flushing what it holds; resolves once its file is closed, even after an error. */
function closeStream(out: WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (out.closed) return resolve()
    out.once('close', () => resolve())
    if (out.destroyed) return
    out.end()
  })
}

async function finish(
  opts: DownloadOptions,
  partPath: string,
  hash: Hash,
  bytes: number,
  resumedFrom: number,
): Promise<Omit<DownloadResult, 'attempts'>> {
  const sha256 = hash.digest('hex')
  const expected = opts.expectedSha256?.toLowerCase()
  if (expected !== undefined && sha256 !== expected) {
    await removePart(partPath)
    throw new DownloadError(
      `The file from ${opts.url} has sha256 ${sha256}, not the expected ${expected}; it was deleted. The server sent a different or ` +
        `damaged file: try again, and report it if it repeats.`,
      { kind: 'digest-mismatch', url: opts.url, expectedSha256: expected, actualSha256: sha256 },
    )
  }
  if (bytes !== opts.expectedSize) {
    await removePart(partPath)
    throw new DownloadError(
      `The file from ${opts.url} has ${bytes} bytes, not the expected ${opts.expectedSize}; it was deleted, try again.`,
      { kind: 'size-mismatch', url: opts.url },
    )
  }
  await rename(partPath, opts.dest)
  await removePart(partPath) // the sidecar
  opts.onProgress?.({ bytes, total: bytes, rateBps: 0 })
  return { path: opts.dest, sizeBytes: bytes, sha256, resumedFrom }
}

function statusError(res: IncomingMessage, status: number, opts: DownloadOptions): DownloadError {
  res.resume()
  const host = hostOf(opts.url)
  if (isRateLimited(status, res.headers)) {
    const at = rateLimitResetAt(res.headers)
    const when = at ? `try again after ${at.toISOString().replace(/\.\d+Z$/, 'Z')}` : 'wait a while and try again'
    return new DownloadError(`${host} is rate limiting downloads (HTTP ${status}); ${when}, or set a token to raise the limit.`, {
      kind: 'rate-limited',
      url: opts.url,
      status,
      ...(at ? { retryAt: at } : {}),
    })
  }
  const why =
    status === 401 || status === 403
      ? 'access was refused (a token may be needed)'
      : status === 404
        ? 'no such file'
        : (res.statusMessage ?? 'error')
  return new DownloadError(`${host} answered HTTP ${status} for ${opts.url}: ${why}.`, { kind: 'http', url: opts.url, status })
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}
