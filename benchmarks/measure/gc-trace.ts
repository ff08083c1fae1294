/**
 * V8 shrinks the heap once after the load (the memory reducer: two or three mark-compacts, 32 to 16 MB here). On 2
 * busy cores it came 40 to 80 s after the start, inside or outside the window at random (runs of 4.12 and 1.26 ms/s);
 * on the GPU host, whose servers take 25 s to load, a window opened 20 s after ready caught it too. So the steady state
 * is measured after it: the CLI runs with --trace-gc (a line per GC on stdout, none while idle) and the window opens
 * REDUCER_QUIET_MS after its last "(reduce)" GC, or at REDUCER_WAIT_MAX_MS after ready without one.
 */
export const REDUCER_QUIET_MS = 3000
export const REDUCER_WAIT_MAX_MS = 150_000

/** The main-thread ms one --trace-gc line reports: its pause, plus the incremental marking steps before it. */
export function gcLineMs(line: string): number | null {
  const pause = /MB, ([\d.]+) \/ [\d.]+ ms/.exec(line)
  if (!pause) return null
  const steps = /\(\+ ([\d.]+) ms in \d+ steps/.exec(line)
  return Number(pause[1]) + (steps ? Number(steps[1]) : 0)
}

/** The GC lines of one measured CLI: when its heap shrink came, and what collected inside the window. */
export class GcTrace {
  private lastShrinkAt: number | null = null
  private windowOpen = false
  private shrinkInWindow = false
  /** GCs inside the window and their main-thread ms. */
  gcs = 0
  gcMs = 0

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** One line of the CLI's stdout; true when it was a GC line (not the CLI's own output). */
  feed(line: string): boolean {
    const ms = gcLineMs(line)
    if (ms === null || !/Scavenge|Mark-Compact|Minor Mark/.test(line)) return false
    if (line.includes('(reduce)')) {
      this.lastShrinkAt = this.now()
      if (this.windowOpen) this.shrinkInWindow = true
    }
    if (this.windowOpen) {
      this.gcs++
      this.gcMs += ms
    }
    return true
  }

  /** Waits `settleMs` after ready, then for the heap shrink to be over (or REDUCER_WAIT_MAX_MS after ready). */
  async settle(readyAt: number, settleMs: number): Promise<void> {
    const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
    await sleep(Math.max(0, readyAt + settleMs - this.now()))
    const quiet = (): boolean => this.lastShrinkAt !== null && this.now() - this.lastShrinkAt >= REDUCER_QUIET_MS
    while (!quiet() && this.now() - readyAt < REDUCER_WAIT_MAX_MS) await sleep(500)
  }

  /** The window opens: GCs are counted from now. */
  open(): void {
    this.windowOpen = true
  }

  /** Whether the heap shrink came before the window (false: it never came, or came inside). */
  get shrinkBefore(): boolean {
    return this.lastShrinkAt !== null && !this.shrinkInWindow
  }
}
