import { constants } from 'node:fs'
import { lstat, mkdir, open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { CUT_MARK } from '../lib/line-splitter'

/**
 * Where a server's log lives: logs/llama-server.log for the active profile's, logs/llama-server-<id>.log for a
 * pinned profile's (its supervisor's serverName).
 */
export function serverLogPath(home: string, serverName: string | null): string {
  return join(home, 'logs', serverName === null ? 'llama-server.log' : `llama-server-${serverName}.log`)
}

export interface RotatingLogOptions {
  readonly maxBytes: number
  /** Rotated files kept: name.1 (newest) … name.N. */
  readonly keep: number
  readonly flushIntervalMs: number
  /** Lines waiting for the disk, at most: past it new lines are dropped and counted (a flooding server). */
  readonly maxBufferedBytes?: number
}

export const DEFAULT_LOG_ROTATION: RotatingLogOptions = { maxBytes: 5 * 1024 * 1024, keep: 3, flushIntervalMs: 250 }
const DEFAULT_MAX_BUFFERED_BYTES = 1024 * 1024
/** A longer line (ours: the splitter already cuts the server's) is cut and marked. */
const MAX_LINE_CHARS = 16 * 1024

/** No following a link, no waiting on a FIFO without a reader (ENXIO instead), where the OS has the flags. */
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)

/**
 * Appends lines to a file in batches (one write per flush interval, not per line, or at once when a quarter of
 * the buffer is full) and rotates it so that no file passes maxBytes, whatever the line lengths. At most
 * maxBufferedBytes wait for the disk; beyond that lines are dropped and a line says how many. Write errors
 * are reported once through onError and never thrown at the caller: logging must not stop the server.
 */
export class RotatingLogFile {
  private buffer: string[] = []
  private bufferedBytes = 0
  /** Bytes handed to the write chain and not yet on disk. */
  private writingBytes = 0
  private dropped = 0
  private size: number | null = null
  private timer: NodeJS.Timeout | null = null
  private chain: Promise<void> = Promise.resolve()
  private failed = false
  private readonly maxBuffered: number
  private readonly maxLineChars: number

  constructor(
    readonly path: string,
    private readonly options: RotatingLogOptions = DEFAULT_LOG_ROTATION,
    private readonly onError: (err: Error) => void = () => {},
  ) {
    this.maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES
    // UTF-8 takes at most 3 bytes per UTF-16 unit: a cut line always fits in an empty file.
    this.maxLineChars = Math.max(1, Math.min(MAX_LINE_CHARS, Math.floor((options.maxBytes - 64) / 3)))
  }

  /** Lines dropped since the last mark: for tests and the flood's own line. */
  get droppedLines(): number {
    return this.dropped
  }

  append(line: string): void {
    if (this.failed) return
    const text = line.length > this.maxLineChars ? line.slice(0, this.maxLineChars) + CUT_MARK : line
    const bytes = Buffer.byteLength(text) + 1
    if (this.bufferedBytes + this.writingBytes + bytes > this.maxBuffered) {
      this.dropped++
      return
    }
    this.takeDropMark()
    this.buffer.push(text)
    this.bufferedBytes += bytes
    if (this.writingBytes === 0 && this.bufferedBytes >= this.maxBuffered / 4) void this.flush()
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.flushIntervalMs)
      this.timer.unref()
    }
  }

  /** Writes what is buffered; resolves when it is on disk. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = null
    }
    this.takeDropMark()
    const lines = this.buffer
    const bytes = this.bufferedBytes
    this.buffer = []
    this.bufferedBytes = 0
    if (lines.length > 0) {
      this.writingBytes += bytes
      this.chain = this.chain
        .then(() => this.write(lines))
        .finally(() => {
          this.writingBytes -= bytes
          // What piled up while the disk was busy goes next, not a flush interval later.
          if (this.bufferedBytes >= this.maxBuffered / 4 && this.writingBytes === 0) void this.flush()
        })
    }
    return this.chain
  }

  /** The line that says lines were dropped, in the place where they were. */
  private takeDropMark(): void {
    if (this.dropped === 0) return
    const mark = `[llama-tray] ${this.dropped} lines dropped: llama-server wrote faster than its log could be written`
    this.dropped = 0
    this.buffer.push(mark)
    this.bufferedBytes += mark.length + 1
  }

  private async write(lines: readonly string[]): Promise<void> {
    if (this.failed) return
    try {
      if (this.size === null) {
        await mkdir(dirname(this.path), { recursive: true })
        this.size = await this.currentSize()
      }
      let segment: string[] = []
      let segmentBytes = 0
      for (const line of lines) {
        const bytes = Buffer.byteLength(line) + 1
        if (this.size + segmentBytes + bytes > this.options.maxBytes && this.size + segmentBytes > 0) {
          await this.appendText(segment, segmentBytes)
          segment = []
          segmentBytes = 0
          await this.rotate()
        }
        segment.push(line)
        segmentBytes += bytes
      }
      await this.appendText(segment, segmentBytes)
    } catch (err) {
      if (!this.failed) this.onError(err as Error)
      this.failed = true
    }
  }

  /** The size of the file there, 0 for none; anything but a regular file is refused (a FIFO would hang the write). */
  private async currentSize(): Promise<number> {
    const info = await lstat(this.path).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return null
      throw err
    })
    if (info === null) return 0
    if (!info.isFile()) {
      const what = info.isSymbolicLink() ? 'a link' : info.isFIFO() ? 'a FIFO' : info.isDirectory() ? 'a folder' : 'not a regular file'
      throw new Error(`The log ${basename(this.path)} is ${what}, not a file: remove it so llama-server's log can be written.`)
    }
    return info.size
  }

  private async appendText(lines: readonly string[], bytes: number): Promise<void> {
    if (lines.length === 0) return
    const handle = await open(this.path, APPEND_FLAGS, 0o644)
    try {
      await handle.writeFile(`${lines.join('\n')}\n`)
    } finally {
      await handle.close()
    }
    this.size = (this.size ?? 0) + bytes
  }

  private async rotate(): Promise<void> {
    await rm(`${this.path}.${this.options.keep}`, { force: true })
    for (let i = this.options.keep - 1; i >= 1; i--) {
      await rename(`${this.path}.${i}`, `${this.path}.${i + 1}`).catch(() => {})
    }
    await rename(this.path, `${this.path}.1`).catch(() => {})
    this.size = 0
  }
}
