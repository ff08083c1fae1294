import type { IncomingMessage, ServerResponse } from 'node:http'

export interface ServedFile {
  readonly body: Buffer
  readonly etag?: string
  readonly lastModified?: string
}

export interface RangeOptions {
  /** Send this many bytes of the answer's body, then cut the connection. */
  readonly cutAfter?: number
  /** Send this many bytes, then stall (a connection that goes quiet). */
  readonly stallAfter?: number
  /** Send this many bytes, then wait for `until` before the rest (a download held in the middle, to look at its progress). */
  readonly pauseAfter?: { readonly bytes: number; readonly until: Promise<void> }
  /** Answer 200 with the whole file even when a Range is asked. */
  readonly ignoreRange?: boolean
  readonly headers?: Readonly<Record<string, string>>
  /**
   * A server that lies about the size (Range is then ignored): 'endless' sends no
   * Content-Length and streams the file, then zeros, until the client hangs up;
   * `{ contentLength }` announces that length and sends that many bytes (the file, then zeros).
   */
  readonly sizeLie?: 'endless' | { readonly contentLength: number }
}

/**
 * Answers a GET/HEAD for one file the way a CDN does: Content-Length, ETag,
 * Accept-Ranges, `Range: bytes=a-[b]` → 206 with Content-Range (416 past the
 * end), `If-Range` that no longer matches → the whole file with 200.
 */
export function sendWithRange(req: IncomingMessage, res: ServerResponse, file: ServedFile, opts: RangeOptions = {}): void {
  const size = file.body.length
  const base: Record<string, string> = { 'accept-ranges': 'bytes', 'content-type': 'application/octet-stream', ...opts.headers }
  if (file.etag) base.etag = file.etag
  if (file.lastModified) base['last-modified'] = file.lastModified
  if (opts.sizeLie !== undefined) return sendLying(req, res, file, base, opts.sizeLie)
  let start = 0
  let end = size - 1
  let status = 200
  const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '')
  const ifRange = req.headers['if-range']
  const rangeStillValid = ifRange === undefined || ifRange === file.etag || ifRange === file.lastModified
  if (range && !opts.ignoreRange && rangeStillValid) {
    start = Number(range[1])
    end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1
    if (start >= size) {
      res.writeHead(416, { ...base, 'content-range': `bytes */${size}` })
      return void res.end()
    }
    status = 206
    base['content-range'] = `bytes ${start}-${end}/${size}`
  }
  const body = file.body.subarray(start, end + 1)
  res.writeHead(status, { ...base, 'content-length': String(body.length) })
  if (req.method === 'HEAD') return void res.end()
  const pause = opts.pauseAfter
  if (pause && pause.bytes < body.length) {
    res.write(body.subarray(0, pause.bytes))
    void pause.until.then(() => res.end(body.subarray(pause.bytes)))
    return
  }
  const stopAt = opts.cutAfter ?? opts.stallAfter
  if (stopAt === undefined || stopAt >= body.length) return void res.end(body)
  res.write(body.subarray(0, stopAt), () => {
    if (opts.cutAfter !== undefined) res.socket?.destroy()
    // stallAfter: nothing more is sent; the client's idle timeout must notice.
  })
}

const ZEROS = Buffer.alloc(64 * 1024)

type SizeLie = NonNullable<RangeOptions['sizeLie']>

function sendLying(req: IncomingMessage, res: ServerResponse, file: ServedFile, base: Record<string, string>, lie: SizeLie): void {
  const announced = lie === 'endless' ? null : lie.contentLength
  res.writeHead(200, announced === null ? base : { ...base, 'content-length': String(announced) })
  if (req.method === 'HEAD') return void res.end()
  let left = announced ?? Infinity
  if (left === 0) return void res.end()
  let open = true
  let bodySent = false
  res.on('close', () => (open = false))
  // Written with backpressure, so an endless answer costs the stand-in no memory while the client reads.
  const pump = (): void => {
    while (open && left > 0) {
      const chunk = bodySent ? ZEROS : file.body
      bodySent = true
      const piece = chunk.subarray(0, Math.min(chunk.length, left))
      left -= piece.length
      if (left === 0) return void res.end(piece)
      if (!res.write(piece)) return void res.once('drain', pump)
    }
  }
  pump()
}
