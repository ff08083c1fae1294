/**
 * Collects lines and hands them over in batches: at most one push per
 * interval, and at once when a batch reaches maxLines. A busy llama-server
 * (buun logs a line per token) then costs a few IPC messages a second.
 */
export class LogBatcher {
  private lines: string[] = []
  private timer: NodeJS.Timeout | null = null

  constructor(
    private readonly flushTo: (lines: readonly string[]) => void,
    private readonly intervalMs = 100,
    private readonly maxLines = 500,
  ) {}

  push(line: string): void {
    this.lines.push(line)
    if (this.lines.length >= this.maxLines) this.flush()
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.intervalMs)
      this.timer.unref()
    }
  }

  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer)
      this.timer = null
    }
    if (this.lines.length === 0) return
    const batch = this.lines
    this.lines = []
    this.flushTo(batch)
  }
}
