import { join } from 'node:path'
import type { LaunchSpec } from '../contract/commands'
import type { DownloadInfo, ExitInfo, ServerProcess, ServerStateKind, ServerStatus } from '../contract/server-state'
import { LineSplitter } from '../lib/line-splitter'
import { Listeners } from '../lib/listeners'
import { RingBuffer } from '../lib/ring-buffer'
import { hideApiKeys, removeKeyFile, removeStaleKeyFiles } from './api-key-file'
import { diagnoseExit, type Diagnosis } from './diagnose'
import { findFreePort, isPortInUse } from './free-port'
import type { SupervisorEvents, SupervisorOptions } from './supervisor-options'
import { probeHealth } from './health'
import { resolveEndpoint, scrubEnvironment, withoutListenFlags, type ListenPlan } from './launch-args'
import { portTakenMessage } from './port-holder/port-holder'
import { RotatingLogFile, serverLogPath } from './log-file'
import { reapOrphans } from './orphans'
import { descendantsOf, releasePipes } from './release-pipes'
import { PidFiles } from './pid-file'
import { preflight, type PreflightFailure } from './preflight'
import { readProcessIdentity } from './process-identity'
import {
  DEFAULT_STOP,
  SpawnError,
  spawnProcess,
  stopProcessTree,
  type ExitStatus,
  type SpawnedProcess,
  type StopResult,
} from './process-tree'
import { redactArgs } from './redact'
import { DEFAULT_RESTART_POLICY, decideRestart, endsTheRun } from './restart-policy'
import { isValidTransition } from './transitions'
import { sameLaunchSpec } from './same-launch'
import { newSession, readySinceOf, statusOf, type LaunchSession, type SupervisorState } from './supervisor-state'
import { hasProcess, servesRequests } from '../contract/server-state'
import { spawnFailureHint } from './exit-status'
import { sleepIdleSeconds, sleepLogEvent } from './sleep-log'
import { hfFailure } from './hf-download-hint'
import { HfDownloadWatch, hfRepos, launchDownloads } from './hf-download-watch'
import { watchUntilHung } from './ready-watchdog'
import { processStopped } from '../platform/process-stopped'
import { abortableSleep, exitInfo, exitSuffix, type ExitCause, type Run } from './supervised-run'
import { DEFAULT_WATCHDOG, watchdogEnabled, type WatchdogOptions } from './watchdog-policy'
import { serverSubcommand } from '../contract/server-binary'
import { CHANNEL_ENV, isChildMessage, parseChildLine, type ChildMessage } from './child-channel'
import { closeChannel, stopThroughChannel } from './channel-stop'
import { SYSTEM_AWAKE_CLOCK, type AwakeClock } from '../lib/awake-clock'
import { SYSTEM_IDLE_BEAT, type IdleBeat } from '../lib/idle-beat'

// Lines llama-server prints while it loads a model: each one pushes the readiness deadline back (a slow disk is not a failure).
const LOAD_PROGRESS = /load_tensors:|llama_model_loader:|llama_context:|llama_kv_cache|common_init_from_params|srv\s+load_model|^\.+$/

export type { SupervisorEvents, SupervisorOptions } from './supervisor-options'

const SETTLED: ReadonlySet<ServerStateKind> = new Set(['ready', 'sleeping', 'stopped', 'backoff', 'crashloop', 'errored'])

/**
 * Owns one llama-server process: starts it, watches it, restarts it after a
 * crash, stops it cleanly. The state has a single writer (transition) and the
 * user's commands (start, stop, restart) run one at a time, in order.
 */
export class ServerSupervisor {
  private state: SupervisorState = { kind: 'stopped' }
  /** The last user start and its automatic restarts; null until the first start (kept after a stop: restart() and status use it). */
  private session: LaunchSession | null = null
  /** How the last process ended; kept through later starts (the status shows the last crash while it runs again). */
  private lastExit: ExitInfo | null = null
  /** The process of the current launch, from its spawn until forget(). */
  private run: Run | null = null
  private queue: Promise<unknown> = Promise.resolve()
  private orphansReaped = false
  private readonly listeners = new Listeners<SupervisorEvents>()
  private readonly logs: RingBuffer<string>
  private readonly logFile: RotatingLogFile
  private readonly pidFiles: PidFiles
  private readonly runDir: string
  private readonly options: Required<
    Omit<SupervisorOptions, 'home' | 'listen' | 'pidFiles' | 'watchdog' | 'serverName' | 'childChannel' | 'failureFix' | 'clock' | 'beat'>
  >
  /** Awake time: the readiness deadline, the time ready and the backoff leave out any sleep. */
  private readonly clock: AwakeClock
  private readonly beat: IdleBeat
  private readonly childChannel: (exe: string) => Promise<boolean>
  private readonly watchdog: () => WatchdogOptions
  private readonly listenPlan: () => ListenPlan
  private readonly failureFix: SupervisorOptions['failureFix'] | null

  constructor(options: SupervisorOptions) {
    this.options = {
      readyTimeoutMs: options.readyTimeoutMs ?? 120_000,
      healthIntervalMs: options.healthIntervalMs ?? 250,
      healthTimeoutMs: options.healthTimeoutMs ?? 2000,
      restartPolicy: options.restartPolicy ?? DEFAULT_RESTART_POLICY,
      stop: options.stop ?? DEFAULT_STOP,
      logCapacity: options.logCapacity ?? 2000,
      downloadPollMs: options.downloadPollMs ?? 500,
    }
    this.listenPlan = options.listen ?? (() => ({ kind: 'free' }))
    this.childChannel = options.childChannel ?? (() => Promise.resolve(true))
    this.failureFix = options.failureFix ?? null
    this.clock = options.clock ?? SYSTEM_AWAKE_CLOCK
    this.beat = options.beat ?? SYSTEM_IDLE_BEAT
    const watchdog = options.watchdog ?? DEFAULT_WATCHDOG
    this.watchdog = typeof watchdog === 'function' ? watchdog : () => watchdog
    this.logs = new RingBuffer(this.options.logCapacity)
    const name = options.serverName ?? null
    // A log that cannot be written is said once in the log lines everyone sees (the server itself runs on).
    this.logFile = new RotatingLogFile(serverLogPath(options.home, name), undefined, (err) => {
      const line = `[llama-tray] ${err.message}`
      this.logs.push(line)
      this.listeners.emit('log', line)
    })
    this.runDir = join(options.home, 'run')
    this.pidFiles = options.pidFiles ?? new PidFiles(this.runDir, undefined, undefined, name)
  }

  on<K extends keyof SupervisorEvents>(event: K, listener: SupervisorEvents[K]): () => void {
    return this.listeners.on(event, listener)
  }

  getStatus(): ServerStatus {
    return statusOf(this.state, this.session, this.lastExit, (t) => this.clock.wallOf(t))
  }

  /** The newest log lines, oldest first. */
  getLogs(max?: number): string[] {
    return this.logs.tail(max)
  }

  /** What was last started (the user's spec, before --host/--port were added). */
  getLaunchSpec(): LaunchSpec | null {
    return this.session?.spec ?? null
  }

  /** Aborted when the current server is stopped: for the app's own requests to it. */
  getRequestSignal(): AbortSignal | null {
    return this.run?.abort.signal ?? null
  }

  /**
   * Starts `spec`. If another server runs, it is stopped first (a profile
   * switch is one command). If this very spec already runs, nothing happens.
   * Resolves once the outcome is known: ready, errored, crashloop, backoff or stopped.
   */
  async start(spec: LaunchSpec): Promise<ServerStatus> {
    await this.enqueue(async () => {
      if (this.run && hasProcess(this.state.kind) && this.session && sameLaunchSpec(this.session.spec, spec)) return
      await this.stopCurrent()
      this.session = newSession(spec, sleepIdleSeconds(spec.args))
      await this.launch()
    })
    await this.settled()
    return this.getStatus()
  }

  /** Stops the server (or a pending restart) and resolves once its process has exited. */
  async stop(): Promise<ServerStatus> {
    await this.enqueue(() => this.stopCurrent())
    return this.getStatus()
  }

  /** Stops and starts the last spec again. */
  async restart(): Promise<ServerStatus> {
    const spec = this.session?.spec
    if (!spec) throw new Error('nothing to restart: no server was started')
    await this.enqueue(async () => {
      await this.stopCurrent()
      this.session = newSession(spec, sleepIdleSeconds(spec.args))
      await this.launch()
    })
    await this.settled()
    return this.getStatus()
  }

  /**
   * Stops the process and any pending restart, and flushes the log. Unlike
   * stop(), an errored or crashloop state is kept, so its reason stays visible.
   */
  async dispose(): Promise<void> {
    await this.enqueue(async () => {
      if (hasProcess(this.state.kind) || this.state.kind === 'backoff') await this.stopCurrent()
    })
    await this.logFile.flush()
    this.listeners.clear()
  }

  private enqueue<T>(job: () => Promise<T>): Promise<T> {
    const next = this.queue.then(job, job)
    this.queue = next.catch(() => undefined)
    return next
  }

  private settled(): Promise<void> {
    if (SETTLED.has(this.state.kind)) return Promise.resolve()
    return new Promise((resolve) => {
      const off = this.on('state', (s) => {
        if (SETTLED.has(s.state)) {
          off()
          resolve()
        }
      })
    })
  }

  /** The only writer of `state`. A forbidden edge is a bug in this class. */
  private transition(next: SupervisorState): void {
    if (!isValidTransition(this.state.kind, next.kind))
      throw new Error(`supervisor bug: invalid transition ${this.state.kind} → ${next.kind}`)
    this.state = next
    this.listeners.emit('state', this.getStatus())
  }

  /** The session, which exists from the first start on (every caller runs inside a launch). */
  private get current(): LaunchSession {
    if (!this.session) throw new Error('supervisor bug: no launch session')
    return this.session
  }

  private updateSession(change: Partial<Omit<LaunchSession, 'spec'>>): void {
    this.session = { ...this.current, ...change }
  }

  private log(line: string): void {
    this.logs.push(line)
    this.logFile.append(line)
    this.listeners.emit('log', line)
  }

  private fail(d: ExitCause, exit: ExitStatus | null, lines: readonly string[]): void {
    const failure = exitInfo(exit, d, lines)
    this.lastExit = failure
    this.log(`[llama-tray] ${d.reason}${d.hint ? ` (${d.hint})` : ''}`)
    this.transition({ kind: 'errored', exit: failure })
  }

  /** A preflight failure with the fix the owner of the profiles finds for it (none when it finds none or fails). */
  private async withFix(failure: PreflightFailure, spec: LaunchSpec): Promise<ExitCause> {
    const find = this.failureFix
    const fix = find ? await find(failure, spec).catch(() => null) : null
    return { ...failure, fix }
  }

  private async launch(): Promise<void> {
    if (!this.session) return
    const { spec } = this.session
    this.updateSession({ exe: spec.exe })
    this.transition({ kind: 'starting', process: null })

    if (!this.orphansReaped) {
      this.orphansReaped = true
      for (const { record, detail } of await reapOrphans(this.pidFiles)) {
        this.log(`[llama-tray] llama-server pid ${record.pid}, left behind by an earlier run (owner pid ${record.ownerPid}): ${detail}`)
      }
      await removeStaleKeyFiles(this.runDir)
    }

    // Behind the endpoint the profile's --host and --port do not apply: it listens on a private loopback port.
    const plan = this.listenPlan()
    const args = plan.kind === 'private' ? withoutListenFlags(spec.args) : spec.args
    const checked = await preflight({ exe: spec.exe, args, env: spec.env })
    if (!checked.ok) return this.fail(await this.withFix(checked.failure, spec), null, [])
    this.updateSession({ exe: checked.exe })

    let endpoint
    try {
      endpoint = await resolveEndpoint(args, async () => (plan.kind === 'port' ? plan.port : findFreePort()))
    } catch (err) {
      return this.fail({ kind: 'flag-value', reason: (err as Error).message, hint: 'fix the --port value' }, null, [])
    }
    // The user's stable port is not ours to change after a lost race: it is checked like a --port.
    const fromSetting = endpoint.portChosen && plan.kind === 'port'
    if (fromSetting) endpoint = { ...endpoint, portChosen: false }
    if (!endpoint.portChosen && (await isPortInUse(endpoint.port, endpoint.host))) {
      const taken = await portTakenMessage(endpoint.port, endpoint.host)
      const change = fromSetting
        ? `set Settings → Port to ${taken.freePort} (free now), or run llama-tray settings set port ${taken.freePort}`
        : `change --port to ${taken.freePort} (free now), or remove it to use the port setting`
      return this.fail({ kind: 'port-in-use', reason: taken.reason, hint: `stop that program, or ${change}` }, null, [])
    }

    const channel = await this.childChannel(checked.exe).catch(() => false)
    // Any value turns the channel on (llama.cpp's router passes its port); the profile's env cannot turn it off.
    const env = { ...scrubEnvironment(process.env), ...(spec.env ?? {}), ...(channel ? { [CHANNEL_ENV]: String(endpoint.port) } : {}) }
    // Out of the process list: every local user can read a command line.
    const keys = await hideApiKeys(endpoint.args, this.runDir)
    if (!keys.ok) return this.fail({ kind: 'flag-value', ...keys.problem }, null, [])
    let proc: SpawnedProcess
    try {
      // llama.cpp's one program runs its server as `llama serve …` (server-binary.ts).
      proc = await spawnProcess(checked.exe, [...serverSubcommand(checked.exe), ...keys.args], env, undefined, channel ? 'pipe' : 'ignore')
    } catch (err) {
      const code = err instanceof SpawnError ? err.code : undefined
      await removeKeyFile(keys.file)
      return this.fail({ kind: 'spawn-failed', reason: (err as Error).message, hint: spawnFailureHint(code) }, null, [])
    }

    const run: Run = {
      spec,
      proc,
      host: endpoint.host,
      port: endpoint.port,
      portChosen: endpoint.portChosen,
      abort: new AbortController(),
      lines: new RingBuffer(200),
      stopRequested: false,
      deadline: this.clock.now() + this.options.readyTimeoutMs,
      spawnedAt: this.clock.now(),
      watch: null,
      asleep: false,
      linesSeen: 0,
      lineListeners: new Set(),
      pidFileWritten: Promise.resolve(),
      keyFile: keys.file,
      channel: channel ? 'offered' : 'off',
      readyClaimed: false,
    }
    this.run = run
    this.log(
      `[llama-tray] started ${[checked.exe, ...serverSubcommand(checked.exe), ...redactArgs(keys.args)].join(' ')} (pid ${proc.pid})`,
    )
    for (const stream of [proc.child.stdout, proc.child.stderr]) {
      const splitter = new LineSplitter((line) => {
        run.linesSeen++
        for (const listener of run.lineListeners) listener()
        // The channel's lines are messages to us, not log (the log keeps what they changed: the state).
        const message = run.channel === 'off' ? null : parseChildLine(line)
        if (message) return this.onChannelLine(run, message, line)
        run.lines.push(line)
        this.log(line)
        if (LOAD_PROGRESS.test(line) && (this.state.kind === 'starting' || this.state.kind === 'loading'))
          run.deadline = Math.max(run.deadline, this.clock.now() + this.options.readyTimeoutMs)
        const sleep = sleepLogEvent(line)
        if (sleep) this.onSleepLine(run, sleep === 'entering')
      })
      stream?.on('data', (chunk: Buffer) => splitter.write(chunk))
      stream?.on('end', () => splitter.end())
    }
    run.pidFileWritten = readProcessIdentity(proc.pid)
      .then((identity) =>
        this.pidFiles.write({
          pid: proc.pid,
          ownerPid: process.pid,
          exe: checked.exe,
          port: run.port,
          identity,
          startedAt: Date.now(),
          profileId: spec.profileId,
        }),
      )
      .catch(() => {})
    void proc.exited.then((exit) => this.onExit(run, exit))
    // Within the state, not an edge: starting now has its process, pid and port.
    if (this.state.kind === 'starting') this.state = { kind: 'starting', process: processOf(run) }
    this.listeners.emit('state', this.getStatus())
    if (launchDownloads(spec.args)) {
      run.watch = new HfDownloadWatch({
        repos: hfRepos(spec.args),
        env,
        intervalMs: this.options.downloadPollMs,
        onChange: (d) => this.onDownload(run, d),
      })
      run.watch.start()
    }
    void this.watchReadiness(run)
  }

  /** starting ⇄ downloading, from the `-hf` download in the cache; the readiness deadline starts when it ends. */
  private onDownload(run: Run, d: DownloadInfo | null): void {
    if (this.run !== run || run.stopRequested) return
    const kind = this.state.kind
    if (d) {
      if (kind === 'downloading') {
        // Progress within the state, not an edge: the record is replaced with the new figures.
        this.state = { kind, process: processOf(run), download: d }
        this.listeners.emit('state', this.getStatus())
      } else if (kind === 'starting' || kind === 'loading') this.transition({ kind: 'downloading', process: processOf(run), download: d })
      return
    }
    if (kind !== 'downloading') return
    run.deadline = this.clock.now() + this.options.readyTimeoutMs
    this.transition({ kind: 'starting', process: processOf(run) })
  }

  private async watchReadiness(run: Run): Promise<void> {
    const signal = run.abort.signal
    while (!signal.aborted && !run.proc.hasExited()) {
      const health = await probeHealth(run.host, run.port, this.options.healthTimeoutMs, signal)
      if (signal.aborted || run.proc.hasExited() || this.run !== run || run.readyClaimed) return
      if (health.kind === 'ready') return this.becomeReady(run)
      // llama-server answers 503 while its -hf download runs too: the download, seen in the cache, says more.
      if (health.kind === 'loading' && this.state.kind === 'starting') this.transition({ kind: 'loading', process: processOf(run) })
      // A download has no deadline: it takes what the network gives; the one for loading starts after it.
      if (this.state.kind !== 'downloading' && this.clock.now() >= run.deadline) {
        await this.enqueue(async () => {
          if (this.run !== run || run.stopRequested) return
          run.stopRequested = true
          run.abort.abort()
          const { exit } = await this.stopProcess(run, false)
          await this.forget(run)
          const seconds = Math.round(this.options.readyTimeoutMs / 1000)
          this.fail(
            {
              kind: 'ready-timeout',
              reason: `llama-server did not become ready within ${seconds} s`,
              hint: 'a very large model may need a longer start timeout; otherwise see the log',
            },
            exit,
            run.lines.tail(30),
          )
        })
        return
      }
      await abortableSleep(this.options.healthIntervalMs, signal)
    }
  }

  /** The run is ready: /health said 200 or the channel said ready, whichever came first (once per run). */
  private async becomeReady(run: Run): Promise<void> {
    if (run.readyClaimed) return
    run.readyClaimed = true
    // Ready means recoverable: once anyone hears "ready", a crash of ours must leave a pid file for the
    // next start to stop this server by (on a busy disk the write can outlast a tiny model's load).
    await run.pidFileWritten
    if (run.abort.signal.aborted || run.proc.hasExited() || this.run !== run) return
    const kind = this.state.kind
    if (kind !== 'starting' && kind !== 'loading' && kind !== 'downloading') return
    run.watch?.stop()
    this.updateSession({ startFailure: null })
    const readySince = this.clock.now()
    this.transition({ kind: 'ready', process: processOf(run), readySince })
    // It fell asleep before the probe saw it ready (a sleep shorter than a health interval).
    if (run.asleep) this.transition({ kind: 'sleeping', process: processOf(run), readySince, waking: null })
    void this.watchAfterReady(run)
  }

  /** A line of llama-server's child channel: its own load progress, ready and sleeping (child-channel.ts). */
  private onChannelLine(run: Run, message: ChildMessage | { kind: 'malformed'; detail: string }, line: string): void {
    if (!isChildMessage(message)) {
      this.log(`[llama-tray] unreadable line from llama-server's channel (${message.detail}): ${line.slice(0, 300)}`)
      return
    }
    if (run.channel === 'offered') {
      run.channel = 'confirmed'
      this.log('[llama-tray] llama-server reports its own load progress and stops through its stdin')
    }
    if (this.run !== run || run.stopRequested) return
    const state = this.state
    switch (message.kind) {
      case 'loading': {
        const progress = message.progress
        if (state.kind === 'starting' || state.kind === 'loading') {
          run.deadline = Math.max(run.deadline, this.clock.now() + this.options.readyTimeoutMs)
          // starting → loading is an edge; a new figure within loading is not (the record is replaced).
          if (state.kind === 'starting') return this.transition({ kind: 'loading', process: processOf(run), progress })
          this.state = { kind: 'loading', process: processOf(run), progress }
          this.listeners.emit('state', this.getStatus())
        } else if (state.kind === 'downloading') {
          // The -hf file is in and the server loads it: the readiness deadline starts here, as after starting.
          run.deadline = this.clock.now() + this.options.readyTimeoutMs
          this.transition({ kind: 'loading', process: processOf(run), progress })
        } else if (state.kind === 'sleeping') {
          // A request is waking it: the reload's progress, within the state.
          this.state = { ...state, waking: progress }
          this.listeners.emit('state', this.getStatus())
        }
        return
      }
      case 'ready':
        if (state.kind === 'sleeping') {
          run.asleep = false
          return this.transition({ kind: 'ready', process: state.process, readySince: state.readySince })
        }
        void this.becomeReady(run)
        return
      case 'sleeping':
        run.asleep = true
        if (state.kind === 'ready') this.transition({ ...state, kind: 'sleeping', waking: null })
        return
      case 'downloading':
        return
    }
  }

  /** ready ⇄ sleeping, from the log; a line in any other state is remembered for when it becomes ready. */
  private onSleepLine(run: Run, asleep: boolean): void {
    if (this.run !== run || run.stopRequested) return
    // With the channel, the wake ends at its "ready" (after the reload, whose progress it reports), not at this line.
    if (!asleep && run.channel === 'confirmed') return
    run.asleep = asleep
    const state = this.state
    if (asleep && state.kind === 'ready') this.transition({ ...state, kind: 'sleeping', waking: null })
    else if (!asleep && state.kind === 'sleeping') this.transition({ ...state, kind: 'ready' })
  }

  private async forget(run: Run, tree: readonly number[] = []): Promise<void> {
    run.watch?.stop()
    // A descendant that left the group may hold the server's output open: it must not hold the stop too.
    if (run.proc.hasExited()) {
      for (const pid of await releasePipes(run.proc, tree))
        this.log(`[llama-tray] ended pid ${pid}, started by llama-server and still holding its output after it exited`)
    }
    if (this.run === run) this.run = null
    await run.pidFileWritten // a write still under way would otherwise land after the removal
    await this.pidFiles.remove().catch(() => {})
    await removeKeyFile(run.keyFile)
  }

  /** An exit we did not ask for: diagnose it, then restart, give up, or report an error. */
  private async onExit(run: Run, exit: ExitStatus): Promise<void> {
    if (run.stopRequested || this.run !== run) return
    run.abort.abort()
    // Let the last buffered output arrive: the diagnosis is usually in the final lines.
    await Promise.race([run.proc.closed, new Promise((r) => setTimeout(r, 300))])
    // Decided in the command queue: a user's stop that arrives meanwhile either runs first (and this
    // exit is then ignored) or finds the backoff it can cancel; never a restart after a stop.
    await this.enqueue(() => this.handleUnexpectedExit(run, exit))
  }

  private async handleUnexpectedExit(run: Run, exit: ExitStatus): Promise<void> {
    if (run.stopRequested || this.run !== run) return
    const lines = run.lines.tail(30)
    const readySince = readySinceOf(this.state)
    const wasReady = readySince !== null
    const readyForMs = readySince !== null ? this.clock.now() - readySince : null
    let d: Diagnosis = await hfFailure(diagnoseExit(exit.code, exit.signal, lines), run.spec.args, {
      ...process.env,
      ...(run.spec.env ?? {}),
    })
    if (d.kind === 'port-in-use' && run.portChosen) d = { ...d, deterministic: false } // lost a race for the port we picked: retry
    await this.forget(run)
    if (!wasReady) {
      const previous = this.current.startFailure
      this.updateSession({ startFailure: d.reason })
      if (endsTheRun(d, previous)) return this.fail(d, exit, lines)
    }

    this.restartOrGiveUp(d, exit, lines, readyForMs, this.clock.wokeRecently(run.spawnedAt))
  }

  /**
   * After an unexpected end (a crash, or the watchdog's stop): backoff and a restart, or crashloop. An end just after
   * the machine woke under this process (`afterSleep`) is the sleep's doing: started again at once, counted neither
   * as a restart nor toward a crash loop.
   */
  private restartOrGiveUp(d: Diagnosis, exit: ExitStatus, lines: readonly string[], readyForMs: number | null, afterSleep = false): void {
    const decision = afterSleep
      ? ({ action: 'restart', delayMs: 0, unstableExits: this.current.unstableExits } as const)
      : decideRestart(this.current.unstableExits, readyForMs, this.options.restartPolicy)
    this.updateSession({ unstableExits: decision.unstableExits })
    if (decision.action === 'give-up') {
      const last = exitInfo(
        exit,
        { ...d, reason: `gave up after ${decision.unstableExits} unstable exits in a row; last: ${d.reason}` },
        lines,
      )
      this.lastExit = last
      this.log(`[llama-tray] ${last.reason}`)
      this.transition({ kind: 'crashloop', exit: last })
      return
    }
    const failure = exitInfo(exit, d, lines)
    this.lastExit = failure
    if (afterSleep) this.log(`[llama-tray] ${d.reason} just after the machine woke; starting it again (not counted as a restart)`)
    else this.log(`[llama-tray] ${d.reason}; restarting in ${(decision.delayMs / 1000).toFixed(1)} s`)
    const timer = setTimeout(() => {
      void this.enqueue(async () => {
        // A stop (or a user start) that ran first has left backoff: no restart after it.
        if (this.state.kind !== 'backoff' || this.state.timer !== timer) return
        if (!afterSleep) this.updateSession({ restarts: this.current.restarts + 1 })
        await this.launch()
      })
    }, decision.delayMs)
    this.transition({ kind: 'backoff', exit: failure, restartAt: this.clock.now() + decision.delayMs, timer })
  }

  /**
   * The watchdog after ready (ready-watchdog.ts): until this run ends, /health at a low rate,
   * never while the server sleeps. A server that stopped answering, with no progress in its
   * log, is stopped (the usual stop, escalating to SIGKILL: a SIGSTOPped process takes only
   * that) and restarted through the restart policy, with the reason in lastExit and the log.
   */
  private async watchAfterReady(run: Run): Promise<void> {
    const options = this.watchdog()
    if (!watchdogEnabled(options)) return
    const reason = await watchUntilHung({
      options,
      signal: run.abort.signal,
      probe: (tickEnd) => probeHealth(run.host, run.port, null, tickEnd),
      linesSeen: () => run.linesSeen,
      onLine: (listener) => {
        run.lineListeners.add(listener)
        return () => run.lineListeners.delete(listener)
      },
      asleep: () => run.asleep,
      stopped: () => processStopped(run.proc.pid),
      idleSleep: (ms, signal) => this.beat.sleep(ms, signal),
      onTick: (tick, misses) => this.listeners.emit('watchdog', tick, misses),
    })
    if (reason === null) return
    await this.enqueue(async () => {
      // A stop, a restart or an exit that came first has dealt with this run already.
      if (this.run !== run || run.stopRequested || run.proc.hasExited() || !servesRequests(this.state.kind)) return
      const readySince = readySinceOf(this.state)
      const readyForMs = readySince !== null ? this.clock.now() - readySince : null
      run.stopRequested = true
      run.abort.abort()
      this.log(`[llama-tray] ${reason}; stopping it to restart it`)
      this.transition({ kind: 'stopping', process: processOf(run) })
      const tree = await descendantsOf(run.proc.pid)
      const { outcome, exit, detail } = await this.stopProcess(run, false)
      await this.forget(run, tree)
      this.log(`[llama-tray] llama-server ${detail}${exitSuffix(outcome, exit)}`)
      const hint = 'the last log lines show what it was doing; if a busy server trips the watchdog, raise watchdogMisses in the settings'
      const d: Diagnosis = { kind: 'unresponsive', reason, hint, deterministic: false }
      this.restartOrGiveUp(d, exit, run.lines.tail(30), readyForMs, this.clock.wokeRecently(run.spawnedAt))
    })
  }

  /**
   * The order of stop attempts: the channel's exit command first (when asked), then, after the grace time,
   * the usual stop (process-tree.ts: signals; on Windows taskkill, then TerminateProcess), which also deals
   * with what is left of the tree. The channel's stdin is closed before any signal.
   */
  private async stopProcess(run: Run, viaChannel: boolean): Promise<StopResult> {
    const cleanly = viaChannel && (await stopThroughChannel(run.proc, this.options.stop.graceMs))
    closeChannel(run.proc)
    const result = await stopProcessTree(run.proc, this.options.stop)
    return cleanly ? { ...result, outcome: 'graceful', detail: 'stopped through its stdin channel' } : result
  }

  private async stopCurrent(): Promise<void> {
    if (this.state.kind === 'backoff') clearTimeout(this.state.timer)
    const run = this.run
    if (run && hasProcess(this.state.kind)) {
      // llama-server reads its stdin only once it is ready: before that a stop goes straight to signals.
      const viaChannel = run.channel === 'confirmed' && servesRequests(this.state.kind)
      run.stopRequested = true
      run.abort.abort()
      this.transition({ kind: 'stopping', process: processOf(run) })
      const tree = await descendantsOf(run.proc.pid)
      const { outcome, exit, detail } = await this.stopProcess(run, viaChannel)
      await this.forget(run, tree)
      this.log(`[llama-tray] llama-server ${detail}${exitSuffix(outcome, exit)}`)
      this.lastExit = exitInfo(exit, null, run.lines.tail(30))
      this.transition({ kind: 'stopped' })
      await this.logFile.flush()
      return
    }
    const kind = this.state.kind
    if (kind === 'backoff' || kind === 'crashloop' || kind === 'errored') this.transition({ kind: 'stopped' })
  }
}

/** The contract's view of a spawned process. */
function processOf(run: Run): ServerProcess {
  return { pid: run.proc.pid, host: run.host, port: run.port }
}
