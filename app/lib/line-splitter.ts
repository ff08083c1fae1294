import { StringDecoder } from 'node:string_decoder'

/** Appended to a line cut at the limit (the rest of that line, up to its newline, is dropped unread). */
export const CUT_MARK = ' … [line cut]'

/**
 * Turns a byte stream into lines. A line longer than maxLineLength is cut there and marked (CUT_MARK); the rest
 * of it is dropped as it arrives, so a child writing megabytes without a newline costs at most one limit of
 * memory. Handles \n and \r\n; a lone \r (progress bars) also ends a line.
 */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8')
  private pending = ''
  /** Inside a line already cut: everything up to the next line end is dropped. */
  private dropping = false

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineLength = 8192,
  ) {}

  write(chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk)
    let data = this.pending + text
    this.pending = ''
    let idx: number
    while ((idx = data.search(/\r\n|\n|\r/)) !== -1) {
      // A \r at the very end may be the first half of \r\n: wait for more.
      if (data[idx] === '\r' && idx === data.length - 1) break
      this.emit(data.slice(0, idx))
      this.dropping = false
      data = data.slice(idx + (data.startsWith('\r\n', idx) ? 2 : 1))
    }
    if (this.dropping) {
      // Keep only a trailing \r, which may start the \r\n that ends the dropped line.
      this.pending = data.endsWith('\r') ? '\r' : ''
      return
    }
    if (data.length > this.maxLineLength) {
      this.cut(data)
      this.pending = data.endsWith('\r') ? '\r' : ''
      return
    }
    this.pending = data
  }

  /** Emits whatever is buffered as a last line. */
  end(): void {
    // The decoder's last characters (an incomplete sequence becomes U+FFFD) go through the line ends like any text:
    // a \r held back as a possible \r\n must not end up inside the last line.
    const tail = this.decoder.end()
    if (tail !== '') this.write(tail)
    const rest = this.pending.replace(/\r$/, '')
    this.pending = ''
    if (!this.dropping && rest.length > 0) this.emit(rest)
    this.dropping = false
  }

  private emit(line: string): void {
    if (this.dropping) return
    if (line.length > this.maxLineLength) this.cut(line)
    else this.onLine(line)
  }

  private cut(line: string): void {
    // A copy, not a slice: a slice would keep the whole chunk it came from alive for as long as the line is kept.
    this.onLine(Buffer.from(line.slice(0, this.maxLineLength)).toString() + CUT_MARK)
    this.dropping = true
  }
}
