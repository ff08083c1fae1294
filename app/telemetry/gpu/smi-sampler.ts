import { spawn, type ChildProcess } from 'node:child_process'
import type { GpuDevice } from '../../contract/telemetry'
import { LineSplitter } from '../../lib/line-splitter'
import { Listeners } from '../../lib/listeners'
import { LEADS_ITS_GROUP, abandonChild, signalProcessGroup } from '../../lib/process/process-group'
import { parseSmiLine } from './smi-csv'
import { queryArgument, type SmiField } from './smi-fields'
import { CSV_FORMAT } from './smi-probe'

/** How long after the child's exit its pipes may stay open before whatever holds them is killed. */
const PIPE_DRAIN_MS = 500

export interface SmiSamplerOptions {
  readonly exe: string
  /** A field list the driver accepts (from probeSmiFields). */
  readonly fields: readonly SmiField[]
  readonly intervalMs: number
  /** No valid line for this many intervals → the child is killed and respawned. */
  readonly watchdogIntervals?: number
  /** A new child gets at least this long for its first line (driver start-up; default 5000 ms). */
  readonly startupGraceMs?: number
  readonly backoffInitialMs?: number
  readonly backoffMaxMs?: number
  /** Grace between SIGTERM and SIGKILL when stopping; after as long again we stop waiting for the child. */
  readonly killGraceMs?: number
  /** The child's environment (default: ours). */
  readonly env?: NodeJS.ProcessEnv
}

export interface SmiReading {
  readonly devices: readonly GpuDevice[]
  /** Epoch ms of the newest valid line; null before the first. */
  readonly sampledAt: number | null
  readonly stale: boolean
  /** Why the reading is stale or missing; null when fresh. */
  readonly reason: string | null
}

export interface SmiSamplerStats {
  spawns: number
  linesParsed: number
  linesSkipped: number
  watchdogKills: number
}

interface SamplerEvents {
  sample: (device: GpuDevice) => void
  spawn: (pid: number) => void
  exit: (code: number | null, signal: NodeJS.Signals | null) => void
}

/**
 * One long-lived `nvidia-smi --query-gpu=… --format=csv,noheader,nounits -lms N`
 * child, read line by line. NVML stays initialised inside it, so a sample costs
 * a line of parsing instead of a process start.
 *
 * Invariant: at most one child is alive. A new one is spawned only after the
 * previous one's 'close' (or spawn 'error'); the watchdog kills a silent child
 * and the restart waits for its exit, then a backoff (1, 2, 4 … s, capped).
 * The child leads its own process group, and every kill is for the group: a
 * grandchild holding its stdout would otherwise keep 'close' from coming.
 */
export class SmiSampler {
  readonly stats: SmiSamplerStats = { spawns: 0, linesParsed: 0, linesSkipped: 0, watchdogKills: 0 }
  private readonly events = new Listeners<SamplerEvents>()
  private readonly devices = new Map<number, { device: GpuDevice; at: number }>()
  private child: ChildProcess | null = null
  private childGone: Promise<void> = Promise.resolve()
  private running = false
  private failures = 0
  private lastLineAt: number | null = null
  private lastActivity = 0
  private childHasSpoken = false
  /** Lines we could not read since the last good one, and the newest of them (for the reason). */
  private unreadable = { count: 0, last: '' }
  private reason: string | null = 'nvidia-smi has not answered yet'
  private restartTimer: NodeJS.Timeout | null = null
  private watchdog: NodeJS.Timeout | null = null
  private stderrTail = ''
  /** The -lms period of the child (the options' at first; setIntervalMs changes it). */
  private intervalMs: number

  constructor(private readonly options: SmiSamplerOptions) {
    this.intervalMs = options.intervalMs
  }

  /** The current sampling period. */
  get interval(): number {
    return this.intervalMs
  }

  /**
   * Samples every `ms` from now on: a running child is replaced by one with the new -lms (nvidia-smi
   * cannot change it in place). The lead calls this only when the pace changes (the dashboard shows or
   * hides), not per request, since a new child costs a process start.
   */
  async setIntervalMs(ms: number): Promise<void> {
    if (ms === this.intervalMs) return
    const wasRunning = this.running
    if (wasRunning) await this.stop()
    this.intervalMs = ms
    if (wasRunning) this.start()
  }

  on<K extends keyof SamplerEvents>(event: K, listener: SamplerEvents[K]): () => void {
    return this.events.on(event, listener)
  }

  get childPid(): number | null {
    return this.child?.pid ?? null
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.failures = 0
    this.spawnChild()
    // One look every two limits, never moved by the lines: a timer pushed back from a line (outside Node's
    // timer phase) still woke the process at its first expiry, every other line (about 1 ms of CPU each
    // here). A silent child is killed 1 to 2 limits after its last line; its figures read stale after one.
    this.watchdog = setInterval(() => this.checkWatchdog(), 2 * this.staleAfterMs())
  }

  /**
   * Stops the child and its group (SIGTERM, SIGKILL after a grace) and resolves
   * once it is gone, or after a second grace: a child stuck in the driver outlives
   * even SIGKILL until the driver returns, and must not hold up a quit.
   */
  async stop(): Promise<void> {
    this.running = false
    if (this.restartTimer) clearTimeout(this.restartTimer)
    if (this.watchdog) clearInterval(this.watchdog)
    this.restartTimer = this.watchdog = null
    const child = this.child
    if (!child) return
    const graceMs = this.options.killGraceMs ?? 1000
    const waitGone = (ms: number): Promise<boolean> => {
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))
      return Promise.race([this.childGone.then(() => true), late]).finally(() => clearTimeout(timer))
    }
    signalProcessGroup(child, 'SIGTERM')
    if (await waitGone(graceMs)) return
    signalProcessGroup(child, 'SIGKILL')
    if (await waitGone(graceMs)) return
    abandonChild(child)
    if (this.child === child) this.child = null
  }

  latest(now = Date.now()): SmiReading {
    const window = this.staleAfterMs()
    // No child alive (it died, waiting for the restart): nothing is refreshing the figures.
    const stale = this.lastLineAt === null || now - this.lastLineAt > window || this.child === null
    const newest = this.lastLineAt ?? 0
    const devices = [...this.devices.values()]
      .filter((d) => newest - d.at <= window) // a GPU that stopped appearing is dropped
      .map((d) => d.device)
      .sort((a, b) => a.index - b.index)
    return { devices, sampledAt: this.lastLineAt, stale, reason: stale ? (this.reason ?? 'nvidia-smi stopped answering') : null }
  }

  private staleAfterMs(): number {
    return (this.options.watchdogIntervals ?? 3) * this.intervalMs
  }

  private spawnChild(): void {
    const { exe, fields } = this.options
    const child = spawn(exe, [queryArgument(fields), CSV_FORMAT, '-lms', String(Math.round(this.intervalMs))], {
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      shell: false,
      env: this.options.env ?? process.env,
      ...LEADS_ITS_GROUP,
    })
    this.child = child
    this.stats.spawns++
    this.lastActivity = Date.now()
    this.childHasSpoken = false
    this.unreadable = { count: 0, last: '' }
    this.stderrTail = ''
    const splitter = new LineSplitter((line) => this.onLine(line), 4096)
    child.stdout?.on('data', (chunk: Buffer) => splitter.write(chunk))
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      this.stderrTail = (this.stderrTail + text).slice(-500)
    })
    let gone = false
    let markGone!: () => void
    this.childGone = new Promise((resolve) => (markGone = resolve))
    // 'close' (not 'exit'): the process is gone and its last stdout/stderr bytes are read.
    const onGone = (code: number | null, signal: NodeJS.Signals | null, error?: Error): void => {
      if (gone) return
      gone = true
      markGone()
      splitter.end()
      if (this.child === child) this.child = null
      const detail = error ? error.message : (this.stderrTail.trim().split('\n').pop() ?? '')
      const watchdogKill = signal === 'SIGKILL' && this.reason?.startsWith('nvidia-smi printed nothing')
      if (!watchdogKill)
        this.reason = `nvidia-smi ${error ? 'could not start' : `exited (${signal ?? `code ${code}`})`}${detail ? `: ${detail}` : ''}; restarting`
      this.events.emit('exit', code, signal)
      this.scheduleRestart()
    }
    child.on('close', (code, signal) => onGone(code, signal))
    child.on('error', (err) => onGone(null, null, err))
    child.on('exit', (code, signal) => {
      // Normally 'close' follows within a moment. If a descendant still holds the pipes, end it and
      // stop reading, so 'close' (and the restart) comes; the group lives while it does, so its id is ours.
      const drain = setTimeout(() => {
        if (gone) return
        signalProcessGroup(child, 'SIGKILL')
        abandonChild(child)
        onGone(code, signal)
      }, PIPE_DRAIN_MS)
      drain.unref()
    })
    if (child.pid !== undefined) this.events.emit('spawn', child.pid)
  }

  private onLine(line: string): void {
    const device = parseSmiLine(line, this.options.fields)
    if (!device) {
      if (line.trim() === '') return
      this.stats.linesSkipped++
      this.unreadable = { count: this.unreadable.count + 1, last: line.trim().slice(0, 80) }
      return
    }
    const now = Date.now()
    this.stats.linesParsed++
    this.lastLineAt = this.lastActivity = now
    this.childHasSpoken = true
    this.failures = 0
    this.reason = null
    this.unreadable = { count: 0, last: '' }
    this.devices.set(device.index, { device, at: now })
    this.events.emit('sample', device)
  }

  private checkWatchdog(): void {
    const child = this.child
    if (!child || !this.running) return
    const limit = this.childHasSpoken ? this.staleAfterMs() : Math.max(this.staleAfterMs(), this.options.startupGraceMs ?? 5000)
    if (Date.now() - this.lastActivity > limit) {
      this.stats.watchdogKills++
      const { count, last } = this.unreadable
      // A driver whose output we cannot read (a changed format, an error instead of figures) is not silent.
      this.reason =
        count > 0
          ? `nvidia-smi printed nothing readable for ${limit} ms (${count} unreadable lines, the last: ${JSON.stringify(last)}); ` +
            'restarting it'
          : `nvidia-smi printed nothing for ${limit} ms; restarting it`
      this.lastActivity = Date.now() // one kill per silent period; the restart waits for the exit
      signalProcessGroup(child, 'SIGKILL')
    }
  }

  private scheduleRestart(): void {
    if (!this.running || this.restartTimer) return
    const initial = this.options.backoffInitialMs ?? 1000
    const delay = Math.min(initial * 2 ** this.failures, this.options.backoffMaxMs ?? 30_000)
    this.failures++
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null
      if (this.running && !this.child) this.spawnChild()
    }, delay)
  }
}
