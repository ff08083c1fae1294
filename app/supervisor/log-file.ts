import { appendFile, mkdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'

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
}

export const DEFAULT_LOG_ROTATION: RotatingLogOptions = { maxBytes: 5 * 1024 * 1024, keep: 3, flushIntervalMs: 250 }

/**
 * Appends lines to a file in batches (one write per flush interval, not per
 * line) and rotates it at maxBytes. Write errors are reported once through
 * onError and never thrown at the caller: logging must not stop the server.
 */
export class RotatingLogFile {
  private buffer: string[] = []
  private size: number | null = null
  private timer: NodeJS.Timeout | null = null
  private chain: Promise<void> = Promise.resolve()
  private failed = false

  constructor(
    readonly path: string,
    private readonly options: RotatingLogOptions = DEFAULT_LOG_ROTATION,
    private readonly onError: (err: Error) => void = () => {},
  ) {}

  append(line: string): void {
    this.buffer.push(line)
    if (!this.timer) {
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
    const lines = this.buffer
    this.buffer = []
    if (lines.length > 0) this.chain = this.chain.then(() => this.write(`${lines.join('\n')}\n`))
    return this.chain
  }

  private async write(text: string): Promise<void> {
    try {
      if (this.size === null) {
        await mkdir(dirname(this.path), { recursive: true })
        this.size = await stat(this.path).then(
          (s) => s.size,
          () => 0,
        )
      }
      if (this.size > 0 && this.size + Buffer.byteLength(text) > this.options.maxBytes) await this.rotate()
      await appendFile(this.path, text)
      this.size += Buffer.byteLength(text)
    } catch (err) {
      if (!this.failed) this.onError(err as Error)
      this.failed = true
    }
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
