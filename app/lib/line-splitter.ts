import { StringDecoder } from 'node:string_decoder'

/**
 * Turns a byte stream into lines. A line longer than maxLineLength is cut into
 * pieces, so a child writing megabytes without a newline cannot grow memory
 * without bound. Handles \n and \r\n; a lone \r (progress bars) also ends a line.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8')
  private pending = ''

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineLength = 8192,
  ) {}

  write(chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk)
    let data = this.pending + text
    let idx: number
    while ((idx = data.search(/\r\n|\n|\r/)) !== -1) {
      // A \r at the very end may be the first half of \r\n: wait for more.
      if (data[idx] === '\r' && idx === data.length - 1) break
      this.emitBounded(data.slice(0, idx))
      data = data.slice(idx + (data.startsWith('\r\n', idx) ? 2 : 1))
    }
    while (data.length > this.maxLineLength) {
      this.onLine(data.slice(0, this.maxLineLength))
      data = data.slice(this.maxLineLength)
    }
    this.pending = data
  }

  /** Emits whatever is buffered as a last line. */
  end(): void {
    const rest = this.pending + this.decoder.end()
    this.pending = ''
    if (rest.length > 0) this.emitBounded(rest.replace(/\r$/, ''))
  }

  private emitBounded(line: string): void {
    for (let i = 0; i < line.length; i += this.maxLineLength) this.onLine(line.slice(i, i + this.maxLineLength))
    if (line.length === 0) this.onLine('')
  }
}
