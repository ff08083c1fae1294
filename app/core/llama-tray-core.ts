import { childChannelGate } from './child-channel-gate'
import { join } from 'node:path'
import type { CommandChannels, EventChannels, LaunchSpec, Result } from '../contract/commands'
import type { FitEstimate } from '../contract/fit'
import type { GenerationHistory, GenerationSnapshot } from '../contract/generation'
import type { ProfileFileRole, ProfileSummary } from '../contract/profile'
import type { AppSettings } from '../contract/settings'
import type { ServerStatus, ServerStatusOf } from '../contract/server-state'
import type { PlacementRetryNotice, PowerNotice, Snapshot, StartFailure } from '../contract/snapshot'
import { blockingProblems, type FlagProblem } from '../profiles/flag-check'
import { resolveProfileLaunch } from '../profiles/resolve-launch'
import { startFailureOf } from './start-failure'
import { savedDiffersFromRunning } from './saved-not-running'
import { PendingFixes } from './pending-fixes'
import type { GpuSnapshot } from '../contract/telemetry'
import type { Warning } from '../contract/warnings'
import { splitWarningId, type WarningMutes } from '../advisor/warning-id'
import { FitError } from '../fit/fit-error'
import { fitProfile } from '../profiles/profile-fit'
import { GpuRuntimeStore } from '../fit/runtime-store'
import { Listeners } from '../lib/listeners'
import { serverOrigin } from '../contract/client-url'
import { GenerationTracker, type ProfileRollingStore, resolveApiKey, threadsFromLog } from '../metrics'
import { LoadTimes } from '../metrics/load-times'
import { rollingFromHistory } from './rolling-from-history'
import { ProfileStore } from '../profiles/store'
import { missingFileFix } from '../profiles/missing-file-fix'
import { recordedModelSize, recordModelSizes } from '../profiles/model-sizes'
import type { PreflightFailure } from '../supervisor/preflight'
import type { FailureFix } from '../supervisor/supervisor-options'
import { switchProfile } from '../profiles/switch-profile'
import { planOomRetry } from '../profiles/oom-retry'
import type { PlacementBudget } from '../fit/safer-placement'
import { SettingsStore } from '../settings/settings-store'
import type { WatchdogOptions } from '../supervisor/watchdog-policy'
import { portOverride } from '../settings/port-override'
import type { ListenPlan } from '../supervisor/launch-args'
import { buildSnapshot } from '../snapshot/build-snapshot'
import { ServerSupervisor, type SupervisorOptions } from '../supervisor/supervisor'
import { hasProcess, isServing, launchInEffect, servesRequests } from '../contract/server-state'
import type { TelemetryReading, TelemetrySource } from '../telemetry/telemetry-service'
import type { EndpointStatus } from '../contract/endpoint'
import { Endpoint, type EndpointOptions, type ListenResult } from '../endpoint/endpoint-listener'
import type { BenchHost } from '../bench/bench-host'
import { benchCommands } from './bench-commands'
import { engineCommands, type EngineCommandOptions } from './engine-commands'
import { modelCommands, type ModelCommandOptions } from './model-commands'
import { discoverWithEngines } from '../engines/discover-with-engines'
import { llamaFitPlan } from './llama-fit-command'
import type { CliCore } from './cli-core'
import { serverControl, type ServerControl } from '../supervisor/server-control'
import { endpointBackend } from './endpoint-backend'
import { switchRefusal } from './switch-check'
import { SwitchScheduler } from './switch-scheduler'
import { removeServeRecord, writeServeRecord } from './serve-record'
import { PinnedServers } from './pinned-servers'
import { pinCommands } from './pin-commands'
import { LogBatcher } from './log-batcher'
import { learnGpuRuntime } from './runtime-learner'
import { profileCommands } from './profile-commands'
import { storeSummary } from '../profiles/profile-summary'
import { StateHistory } from '../diagnostics/state-history'
import { diagnosticsCommands } from './diagnostics-commands'
import { failed, failedFrom } from '../lib/failed'
import { problem, type Problem } from '../contract/problem'
import type { PowerEvents } from '../platform/power-source'
import { BatteryPolicy } from './battery-policy'
import { GamePolicy } from './game-policy'
import type { ParkingDeps } from './profile-parking'
import type { GpuProcessReader } from '../telemetry/gpu/gpu-process-reader'
import { EnergyMeter } from '../telemetry/gpu/energy-meter'
import { SYSTEM_IDLE_BEAT, type IdleBeat } from '../lib/idle-beat'
import type { Clocks } from '../lib/clock-jump'
import { AwakeClock } from '../lib/awake-clock'
import { serverAnswersAfterResume } from './resume-check'
import { followsGpuStream, gpuIntervalMs, tickDelayMs, WarningConfirmation, type TickPace } from './tick-pace'
import type { HistoryStore } from '../history/history-store'
import { HistoryRecorder } from './history-recorder'
import { saveHistoryExport } from '../history/history-export'
import type { HistoryOverview } from '../contract/history'
import { isInside, listInstalled } from '../engines/installed'

/** What a core without a usage history answers (tests that give none). */
const EMPTY_HISTORY: HistoryOverview = { days: [], changes: [], benches: [], today: { promptTokens: 0, generatedTokens: 0, requests: 0 } }

/** How long an out-of-memory retry waits for a GPU reading taken after the failure (several nvidia-smi intervals). */
const FRESH_GPU_READING_WAIT_MS = 10_000

export interface CoreOptions {
  readonly home: string
  readonly supervisor?: Omit<SupervisorOptions, 'home'>
  /** GPU/CPU telemetry; null for none (tests, or a machine where it is unwanted). */
  readonly telemetry: TelemetrySource | null
  /** The one cadence of snapshots (and of a driven telemetry's samples); default: the settings' pollIntervalMs. */
  readonly cadenceMs?: number
  /** Live warnings from a snapshot (the advisor); none by default. */
  readonly warnings?: (snapshot: Omit<Snapshot, 'warnings'>, settings: AppSettings) => readonly Warning[]
  /** Whether a live warning saw its first samples and waits for the rest (the advisor's): the pace hurries for it. */
  readonly warningsPending?: () => boolean
  /** Applies a warning's fix to a profile; provided with the advisor. */
  readonly applyWarningFix?: (warningId: string, home: string) => Promise<Result<ProfileSummary>>
  /** Per-profile warning mutes; provided with the advisor. */
  readonly mutes?: WarningMutes
  readonly chooseFile?: (role: ProfileFileRole, current: string) => Promise<string | null>
  readonly openPath?: (path: string) => Promise<void>
  /** Where engine installs get llama.cpp's releases and the GPU's CUDA version (default: GitHub from the environment, nvidia-smi). */
  readonly engines?: EngineCommandOptions
  readonly models?: ModelCommandOptions
  /** Main's save dialog for the diagnostics zip (a suggested file name in; the path, or null when cancelled, out). */
  readonly chooseSavePath?: (defaultName: string) => Promise<string | null>
  /** The app's version for diagnostics (Electron's app.getVersion()); default: unknown. */
  readonly appVersion?: () => string
  /** The usage history the core's sessions and the endpoint's requests are written to (the core closes it on dispose); none by default. */
  readonly history?: HistoryStore | null
  /** The power source and its changes (the onBattery setting follows them); none: no power figures, no policy. */
  readonly power?: PowerEvents | null
  /** Wall and monotonic time (tests jump them to simulate a sleep); default: the system's. The core's AwakeClock runs on them. */
  readonly clocks?: Clocks
  /** The idle beat the core's idle tick, the watchdogs and the /slots polls keep to (one wake for all); default: the process's. */
  readonly beat?: IdleBeat
  /** Which programs hold the GPU (read on demand, gated by its power state): the onGame setting watches it; none: no game watch. */
  readonly gpuProcesses?: GpuProcessReader | null
  /**
   * Windows' effective power mode is GameMode (a game besides what the GPU's processes say): read at the game watch's
   * cadence, closed with the core (it holds an OS callback). Absent or null: never known.
   */
  readonly gameMode?: { read(): boolean | null; close?(): void } | null
  /** The shell says a full-screen Direct3D app runs (SHQueryUserNotificationState, a hint for the game watch); absent: unknown. */
  readonly fullScreen?: { read(): boolean | null } | null
  /**
   * Whether the onGame setting watches `gpuProcesses` (default: on Windows, where PDH gives each process's 3D-engine
   * use; NVML and nvidia-smi do not, so elsewhere no read could find a game and none is made).
   */
  readonly gameWatch?: boolean
  /** The game watch's cadence (default GAME_WATCH_INTERVAL_MS, 5 s; tests shorten it). */
  readonly gameWatchIntervalMs?: number
}

/**
 * The app's core as one object: the supervisor, the profiles, telemetry,
 * generation metrics and settings behind the typed contract. The Electron main
 * process, the browser test harness and the CLI all drive this same object.
 */
export class LlamaTrayCore implements CliCore, BenchHost {
  /** Private: every launch goes through the core, which keeps its bookkeeping (load times, tracker, cadence) in step. */
  private readonly supervisor: ServerSupervisor
  /** The server as the CLI, benches and tests read and stop it. */
  readonly server: ServerControl
  readonly handlers: CommandChannels
  private readonly events = new Listeners<EventChannels>()
  private readonly logs = new LogBatcher((lines) => this.events.emit('server:log', lines))
  /** The pinned servers' log lines, batched per server like the active one's. */
  private readonly pinnedLogs = new Map<string, LogBatcher>()
  /** The supervisor's recent transitions, for diagnostics. */
  private readonly stateHistory = new StateHistory()
  private tracker: GenerationTracker | null = null
  /** A tracker is being made (its API key is read first): one at a time. */
  private trackerStarting = false
  private lastGeneration: GenerationSnapshot | null = null
  private lastHistory: GenerationHistory = { perSecond: [], requests: [] }
  private dashboardVisible = false
  /** Benches reading the figures now (BenchHost.watch): the core keeps its watched pace while any does. */
  private benchWatchers = 0
  /** GPU memory in use just before our server started, to tell what the server itself holds. */
  private gpuUsedBeforeLaunchMiB: number | null = null
  /** Epoch ms of the running server's launch. */
  private launchedAt: number | null = null
  /** The same launch in awake ms: its load time leaves out a sleep. */
  private launchedAwake: number | null = null
  /** The safer placement the last start fell back to after running out of GPU memory (see planOomRetry). */
  private placementRetry: PlacementRetryNotice | null = null
  /** The running profile's id while its stored settings differ from the ones its server runs (checkSavedNotRunning). */
  private savedNotRunning: string | null = null
  /** The last start the user asked for that was refused before any process ran (see StartFailure). */
  private startFailure: StartFailure | null = null
  private readonly pendingFixes = new PendingFixes()
  /** The running profile being restarted with its stored settings ("Apply and restart"), until the restart resolves. */
  private relaunching: string | null = null
  /** The pending tick's cancel; null while the clock stands. */
  private ticker: (() => void) | null = null
  /** The delay the ticker was last armed with. */
  private tickerDelayMs = 0
  /** Whether a request ran at the last tick (the ticker keeps the busy pace while it does). */
  private tickedActive = false
  /** The ticker is a backstop: the ticks come with the GPU stream's lines (see IDLE_GPU_BACKSTOP_MS). */
  private tickerFollowsGpu = false
  /** A pending warning's samples come at the usual pace (see WarningConfirmation). */
  private readonly confirmation = new WarningConfirmation()
  private confirming = false
  private latest: Snapshot | null = null
  private disposed = false
  /** When the server switches profile: every start and switch (endpoint, tray, dashboard, CLI) asks it. */
  private readonly scheduler: SwitchScheduler
  /** The one endpoint clients use, when it runs; the server behind it then listens on a private port. */
  private endpoint: Endpoint | null = null
  private endpointProblem: EndpointStatus | null = null
  /** The endpoint follows the settings (the app), rather than a command's options (serve). */
  private endpointFromSettings = false
  /** The pinned profiles' servers, beside the active one (started when the core serves: servePinned). */
  private readonly pinned: PinnedServers
  /** Writes sessions and requests to the usage history, when the core has one. */
  private readonly history: HistoryRecorder | null
  /** The onBattery setting at work (with a power source). */
  private readonly battery: BatteryPolicy | null
  private powerNotice: PowerNotice | null = null
  /** The onGame setting at work (with a reader of the GPU's processes). */
  private readonly gameWatch: GamePolicy | null
  /** The GPU's energy from the telemetry's samples: each finished request's energyJ. */
  private readonly energy = new EnergyMeter()
  /**
   * Awake time, the one source for every figure made of time (uptime, load times, the restart policy's windows):
   * told of sleeps by powerMonitor in the app, seeing them as wall-clock jumps in the CLI.
   */
  private readonly awake: AwakeClock
  private readonly beat: IdleBeat
  private resumeChecking = false
  /** The last check after a resume, for diagnostics and tests: when, and whether the server still answered. */
  lastResumeCheck: { readonly at: number; readonly answered: boolean } | null = null

  /** Opens the settings, then builds the core. */
  static async create(options: CoreOptions): Promise<LlamaTrayCore> {
    const core = new LlamaTrayCore(
      options,
      await SettingsStore.open(options.home),
      await rollingFromHistory(options.history ?? null),
      await LoadTimes.open(options.home),
    )
    core.followFiles(await ProfileStore.open(options.home))
    return core
  }

  private unfollowFiles: Array<() => void> = []

  /**
   * Pushes what another process (the CLI, a second app) wrote to profiles.json or settings.json; own changes are pushed where they are
   * made.
   */
  private followFiles(profiles: ProfileStore): void {
    this.unfollowFiles.push(
      profiles.onDidChange((_file, source) => {
        void this.pinned.sync().catch(() => {}) // a pin or an unpin, here or in another process (the CLI)
        if (source === 'disk')
          void storeSummary(profiles, this.options.home).then(
            (summary) => this.events.emit('profiles:changed', summary),
            () => {},
          )
      }),
      this.settingsStore.onDidChange((settings, source) => {
        if (source === 'disk') this.events.emit('settings:changed', settings)
      }),
    )
  }

  private constructor(
    private readonly options: CoreOptions,
    private readonly settingsStore: SettingsStore,
    private readonly rolling: ProfileRollingStore,
    private readonly loadTimes: LoadTimes,
  ) {
    // Behind the endpoint the server takes a private loopback port; without it, the stable port of the
    // settings ($LLAMA_TRAY_PORT overrides it; 0 is any free port).
    const override = portOverride()
    const listen = (): ListenPlan => {
      if (this.endpoint) return { kind: 'private' }
      if (override === 0) return { kind: 'free' }
      return { kind: 'port', port: override ?? this.settingsStore.settings.port }
    }
    const watchdog = (): WatchdogOptions => {
      const { watchdogIntervalS, watchdogMisses } = this.settingsStore.settings
      return { intervalMs: watchdogIntervalS * 1000, misses: watchdogMisses }
    }
    // A file of a stored profile gone before the spawn: the fix points the profile at it again (found, or chosen).
    const failureFix = async (failure: PreflightFailure, spec: LaunchSpec): Promise<FailureFix | null> => {
      if (!failure.path || !(await ProfileStore.open(options.home)).find(spec.profileId)) return null
      return missingFileFix(failure.kind, failure.path, spec.profileId, {
        extraModelDirs: this.settingsStore.settings.modelDirs,
        knownSize: await recordedModelSize(options.home, failure.path),
      })
    }
    const childChannel = childChannelGate(options.home)
    this.awake = new AwakeClock(options.clocks)
    this.beat = options.beat ?? SYSTEM_IDLE_BEAT
    const clock = this.awake
    const beat = this.beat
    this.supervisor = new ServerSupervisor({
      home: options.home,
      listen,
      watchdog,
      childChannel,
      failureFix,
      clock,
      beat,
      ...options.supervisor,
    })
    this.server = serverControl(this.supervisor)
    // A save of the running profile: whether its server now runs settings other than the stored ones.
    this.events.on('profiles:changed', () => void this.checkSavedNotRunning())
    this.supervisor.on('log', (line) => {
      this.tracker?.feedLogLine(line)
      this.logs.push(line)
    })
    this.history = options.history ? this.historyRecorder(options.history) : null
    const historyStore = options.history ?? null
    this.supervisor.on('state', (status) => this.onState(status))
    this.pinned = new PinnedServers({ home: options.home, supervisor: { childChannel, clock, beat, ...options.supervisor }, watchdog })
    this.pinned.on('state', () => {
      if (this.disposed) return
      this.updateCadence()
      this.publishSnapshot()
    })
    this.pinned.on('log', (profileId, line) => {
      let batcher = this.pinnedLogs.get(profileId)
      if (!batcher)
        this.pinnedLogs.set(profileId, (batcher = new LogBatcher((lines) => this.events.emit('server:pinned-log', profileId, lines))))
      batcher.push(line)
    })
    this.scheduler = new SwitchScheduler({
      status: () => this.supervisor.getStatus(),
      onState: (listener) => this.supervisor.on('state', listener),
      check: (id) => switchRefusal(options.home, id, this.supervisor.getStatus().profileId ?? '', (fitId) => this.estimateFit(fitId)),
      load: (id) => this.loadProfile(id),
      settings: () => this.settingsStore.settings,
      generation: () => this.tracker?.snapshot() ?? null,
    })
    this.battery = options.power ? this.batteryPolicy(options.power) : null
    this.gameWatch =
      options.gpuProcesses && (options.gameWatch ?? process.platform === 'win32') ? this.gamePolicy(options.gpuProcesses) : null
    if (options.power) this.awake.follow(options.power)
    this.awake.onResume(() => void this.afterResume())
    options.telemetry?.setExtraHeavyApps?.(settingsStore.settings.heavyApps)
    options.telemetry?.onGpuFresh?.(() => this.onGpuFresh())
    learnGpuRuntime(this, {
      home: options.home,
      serverGpuMiB: () => this.serverGpuMiB(),
      launchedAt: () => this.launchedAt,
      editedSinceLaunch: (profileId) => this.profileEditedSinceLaunch(profileId),
    })
    const profiles = profileCommands({
      home: options.home,
      chooseFile: options.chooseFile ?? (async () => null),
      onChanged: async (store) => this.events.emit('profiles:changed', await storeSummary(store, options.home)),
      discovery: () => ({ extraModelDirs: this.settingsStore.settings.modelDirs }),
      starterGpu: async () => ({
        freeMiB: (await this.placementBudget())?.freeVramMiB ?? null,
        headroomMiB: this.settingsStore.settings.vramHeadroomMiB,
      }),
      mutedKeys: (profileId) => options.mutes?.list(profileId) ?? [],
      // The live advisor's banner says the running profile's findings (re-linted once stored): a save of it does not say them again.
      saidLive: (profileId) => {
        const s = this.supervisor.getStatus()
        return options.warnings !== undefined && hasProcess(s.state) && s.profileId === profileId
      },
    })
    const bench = benchCommands(this, options.home, options.telemetry, (progress) => this.events.emit('bench:progress', progress))
    this.handlers = {
      'server:start': (profileId) => this.startProfile(profileId),
      'server:switch-now': async () => this.scheduler.switchNow(),
      'server:stop': () => {
        this.startFailure = null
        return this.supervisor.stop()
      },
      'server:restart': async () => {
        try {
          return { ok: true, value: await this.supervisor.restart() }
        } catch (err) {
          return failedFrom(err)
        }
      },
      'server:status': async () => this.supervisor.getStatus(),
      'server:logs': async (max) => this.supervisor.getLogs(max),
      'server:pinned-logs': async (profileId, max) => this.pinned.logsOf(profileId, max),
      'snapshot:latest': async () => this.latest,
      'generation:history': async () => this.generationHistory(),
      'history:overview': async (query) => historyStore?.overview(query) ?? EMPTY_HISTORY,
      'history:export': async (format) => {
        if (!historyStore) return failed('settings', 'This Llama Tray keeps no usage history, so there is nothing to export.')
        const path = await (options.chooseSavePath ?? (async () => null))(`llama-tray-history.${format}`)
        if (path === null) return { ok: true, value: null }
        try {
          await saveHistoryExport(historyStore, path, format)
          return { ok: true, value: path }
        } catch (err) {
          return failedFrom(err)
        }
      },
      'dashboard:visible': async (visible) => {
        const changed = visible !== this.dashboardVisible
        this.dashboardVisible = visible
        // The pace follows at once (a shown dashboard gets its 1 s figures from the next tick).
        this.updateCadence(changed && this.ticker !== null)
      },
      // The windows are main's (main/shell.ts answers this); a core without them has no dashboard to show.
      'dashboard:open': async () => undefined,
      ...profiles,
      ...pinCommands({
        home: options.home,
        gpu: async () => {
          const device = (await this.freshGpuReading())?.devices[0] ?? null
          this.updateCadence() // the reading may have started sampling with nothing running
          return device
        },
        onChanged: async (store) => {
          this.events.emit('profiles:changed', await storeSummary(store, options.home))
          await this.pinned.sync() // the pin starts its server, the unpin stops it, before the answer
        },
      }),
      'fit:estimate': (profileId) => this.estimateFit(profileId),
      'fit:llama-plan': (profileId) =>
        llamaFitPlan(options.home, profileId, (id) => this.estimateFit(id), this.settingsStore.settings.vramHeadroomMiB),
      ...bench,
      'bench:run': async (profileIds, benchOptions) => {
        const result = await bench['bench:run'](profileIds, benchOptions)
        if (result.ok) this.history?.onBench(result.value) // a bench run is a session of the history, charted beside the days
        return result
      },
      ...engineCommands(
        {
          home: options.home,
          bench: this,
          runningSpec: () => (launchInEffect(this.supervisor.getStatus().state) ? this.supervisor.getLaunchSpec() : null),
          settings: () => this.settingsStore.settings,
          onProgress: (progress) => this.events.emit('engines:progress', progress),
          onBenchProgress: (progress) => this.events.emit('bench:progress', progress),
          profilesChanged: async () =>
            this.events.emit('profiles:changed', await storeSummary(await ProfileStore.open(options.home), options.home)),
        },
        options.engines,
      ),
      ...modelCommands(
        (progress) => this.events.emit('models:progress', progress),
        {
          home: options.home,
          // The first llama-server discovery lists: an engine installed by Llama Tray comes first.
          binary: async () => (await discoverWithEngines({ home: options.home })).binaries[0]?.path ?? null,
          freeVramMiB: () => this.options.telemetry?.latest().gpu?.devices[0]?.memoryFreeMiB ?? null,
        },
        options.models,
      ),
      'warnings:apply-fix': async (warningId) => {
        if (!this.options.applyWarningFix) return failed('profile', 'no fix is available for this warning: edit the profile instead')
        const warning = this.latest?.warnings.find((w) => w.id === warningId)
        const result = await this.options.applyWarningFix(warningId, this.options.home)
        if (!result.ok) return result
        this.pendingFixes.record(warning, this.supervisor.getStatus(), Date.now())
        // Marked "applies after restart" at once, before the restart the user may click next.
        this.publishSnapshot()
        // The fixed profile is new to the views (the editor reloads it, so that its next Save keeps the fix).
        this.events.emit('profiles:changed', await storeSummary(await ProfileStore.open(this.options.home), this.options.home))
        return result
      },
      'warnings:mute': async (warningId) => {
        const mutes = this.options.mutes
        const target = splitWarningId(warningId)
        if (!mutes) return failed('settings', 'warnings cannot be muted here: mute them in the dashboard')
        if (!target) return failed('input', `"${warningId}" concerns no profile: only a profile's warnings can be muted`)
        await mutes.mute(target.profileId, target.key)
        return { ok: true, value: mutes.list(target.profileId) }
      },
      'warnings:muted': async (profileId) => this.options.mutes?.list(profileId) ?? [],
      'warnings:unmute': async (profileId, key) => {
        const mutes = this.options.mutes
        if (!mutes) return failed('settings', 'warnings cannot be muted here: mute them in the dashboard')
        if (!mutes.list(profileId).includes(key))
          return failed('input', `"${key}" is not muted for this profile, so there is nothing to show again`)
        await mutes.unmute(profileId, key)
        return { ok: true, value: mutes.list(profileId) }
      },
      'settings:get': async () => this.settingsStore.settings,
      'settings:set': async (changes) => {
        const result = await this.settingsStore.update(changes)
        if (result.ok) {
          const changed = changes as Partial<AppSettings>
          if (this.endpointFromSettings && (changed.endpoint !== undefined || changed.port !== undefined)) await this.applyEndpointSetting()
          this.options.telemetry?.setExtraHeavyApps?.(result.value.heavyApps)
          this.events.emit('settings:changed', result.value)
          this.updateCadence(true)
        }
        return result
      },
      'shell:open-logs-folder': async () => {
        await this.options.openPath?.(join(this.options.home, 'logs'))
      },
      ...diagnosticsCommands({
        home: options.home,
        appVersion: options.appVersion ?? (() => 'unknown'),
        status: () => this.supervisor.getStatus(),
        pinned: () => this.pinned.views(),
        transitions: () => this.stateHistory.list(),
        gpu: () => this.options.telemetry?.latest().gpu ?? null,
        chooseSavePath: options.chooseSavePath ?? (async () => null),
      }),
    }
  }

  on<E extends keyof EventChannels>(event: E, listener: EventChannels[E]): () => void {
    return this.events.on(event, listener)
  }

  /** Runs a command line directly, as the CLI's `run --cmd` does. */
  startSpec(spec: LaunchSpec): Promise<ServerStatus> {
    return this.supervisor.start(spec)
  }

  /**
   * A fresh snapshot for a caller with its own cadence (the CLI). Warnings are
   * the ticker's: the advisor's hysteresis counts samples, so only the ticker feeds it.
   */
  snapshot(): Snapshot {
    return this.buildSnapshot(false)
  }

  /**
   * Opens the one OpenAI-compatible endpoint (the port setting and 127.0.0.1
   * unless told otherwise). A taken port is refused with its holder's name and
   * a free port, which the snapshot shows too.
   */
  async startEndpoint(options: Partial<EndpointOptions> & { readonly apiKeyFile?: string | null } = {}): Promise<ListenResult> {
    await this.stopEndpoint()
    const full: EndpointOptions = {
      host: options.host ?? '127.0.0.1',
      port: options.port ?? (portOverride() || this.settingsStore.settings.port),
      apiKey: options.apiKey ?? null,
    }
    const endpoint = new Endpoint(
      full,
      endpointBackend(
        this.options.home,
        this.supervisor,
        () => this.settingsStore.settings,
        this.scheduler,
        this.pinned,
        () => this.gameRefusal(),
        (fromMs, toMs) => this.requestEnergyJ(fromMs, toMs),
      ),
    )
    const result = await endpoint.listen()
    if (!result.ok) {
      await endpoint.close()
      this.endpointProblem = { ...endpoint.status(), problem: result.error }
      return result
    }
    this.endpoint = endpoint
    this.endpointProblem = null
    if (this.history) endpoint.on('request', (figures) => this.history?.onRequest(figures))
    // `llama-tray profiles use` finds this endpoint here (serve's and the app's alike) and switches through it.
    const { host, port } = endpoint.status()
    const record = { pid: process.pid, origin: serverOrigin(host, port), apiKeyFile: options.apiKeyFile ?? null }
    // Not fatal: the endpoint serves without it, and `profiles use` then says that no endpoint runs.
    await writeServeRecord(this.options.home, record).catch(() => {})
    await this.servePinned()
    return result
  }

  /** Starts the pinned profiles' servers beside the active one, and follows the pins from now on (the endpoint, run, the app). */
  servePinned(): Promise<void> {
    return this.pinned.serve()
  }

  /** A pinned profile's server status, when that profile is pinned and served; null otherwise. */
  pinnedStatus(profileId: string): ServerStatus | null {
    return this.pinned.status(profileId)
  }

  /** The app's endpoint: on when the setting "endpoint" is (the default), off otherwise. */
  async applyEndpointSetting(): Promise<ListenResult | null> {
    this.endpointFromSettings = true
    if (this.settingsStore.settings.endpoint) return this.startEndpoint()
    await this.stopEndpoint()
    return null
  }

  async stopEndpoint(): Promise<void> {
    const endpoint = this.endpoint
    this.endpoint = null
    this.endpointProblem = null
    if (endpoint) await removeServeRecord(this.options.home).catch(() => {})
    await endpoint?.close()
  }

  /** Where clients connect, while the endpoint runs or failed to. */
  endpointStatus(): EndpointStatus | null {
    return this.endpoint?.status() ?? this.endpointProblem
  }

  /** Figures of each request that passed through the endpoint. */
  onEndpointRequest(listener: Parameters<Endpoint['on']>[1]): () => void {
    return this.endpoint?.on('request', listener) ?? (() => {})
  }

  /** The running (or last) server's per-second rates and finished requests: a query, kept out of every snapshot. */
  generationHistory(): GenerationHistory {
    return this.tracker?.history() ?? this.lastHistory
  }

  async dispose(): Promise<void> {
    this.disposed = true
    this.battery?.dispose()
    this.gameWatch?.dispose()
    this.options.gameMode?.close?.()
    for (const unfollow of this.unfollowFiles.splice(0)) unfollow()
    await this.stopEndpoint()
    this.scheduler.dispose()
    this.stopTicker()
    await this.stopTracker()
    await this.options.telemetry?.stop()
    await this.pinned.stop()
    await this.supervisor.dispose()
    this.logs.flush()
    for (const batcher of this.pinnedLogs.values()) batcher.flush()
    await this.history?.dispose()
    await this.options.gpuProcesses?.close()
  }

  /** The history's view of this core: the running launch, the profile's name and engine, the placement retry. */
  private historyRecorder(store: HistoryStore): HistoryRecorder {
    const home = this.options.home
    return new HistoryRecorder(store, {
      awake: () => this.awake.now(),
      launch: () => this.supervisor.getLaunchSpec(),
      placementRetry: (profileId) => profileId !== null && this.placementRetry?.profileId === profileId,
      facts: async (profileId, exe) => {
        const profile = profileId === null ? undefined : (await ProfileStore.open(home)).find(profileId)
        const engine = exe === null ? undefined : (await listInstalled(home)).find((e) => isInside(e.dir, exe))
        return {
          profileName: profile?.name ?? null,
          engine: engine ? `llama.cpp ${engine.backend}` : null,
          engineVersion: engine ? (engine.version ?? engine.tag) : null,
          driverVersion: null,
        }
      },
    })
  }

  get settings(): AppSettings {
    return this.settingsStore.settings
  }

  /** Messages about files that had to be recovered at start (shown once to the user). */
  get startupMessages(): readonly string[] {
    const { mutes } = this.options
    return [...this.settingsStore.messages, ...this.loadTimes.messages, ...(mutes?.messages ?? [])]
  }

  /**
   * Starts a stored profile (`server:start`): if another runs, this is a switch, scheduled like an
   * endpoint request (after the running requests, checked before anything stops).
   */
  async startProfile(profileId: string): Promise<Result<ServerStatus>> {
    // A pinned profile runs beside the active one already: a switch to it just routes to its server.
    const pinned = this.pinned.status(profileId)
    if (pinned) return { ok: true, value: pinned }
    // The running profile asked for again (Start, "Apply and restart"): a restart with its stored settings now; while a
    // switch waits, the scheduler takes it instead (the last choice wins: it withdraws the waiting click).
    const waiting = this.scheduler.switchingTo() !== null || this.scheduler.pending() !== null
    if (this.supervisor.getStatus().profileId === profileId && !waiting) {
      this.relaunching = profileId
      try {
        return await this.loadProfile(profileId)
      } finally {
        this.relaunching = null
      }
    }
    const result = await this.scheduler.request(profileId)
    // Refused before anything stopped (the scheduler's check): the header says it, with its fix, unless a later
    // choice replaced this one (the last click wins and is the one shown).
    const latest = this.scheduler.lastChoice() === profileId
    if (!result.ok && latest && this.supervisor.getStatus().profileId !== profileId) await this.recordRefusal(profileId, result.error)
    return result
  }

  /** A user's start the scheduler refused: the flags the binary rejects give the fix button; anything else is said as is. */
  private async recordRefusal(profileId: string, error: Problem): Promise<void> {
    let problems: readonly FlagProblem[] = []
    try {
      problems = blockingProblems((await resolveProfileLaunch(this.options.home, profileId)).problems)
    } catch {
      // the profile or its engine cannot be resolved: the scheduler's sentence says why
    }
    if (problems.length > 0) await this.recordStartFailure(profileId, 'flags that its binary rejects', problems)
    else this.showStartFailure({ profileId, problem: error })
  }

  /** The switch itself (stop, wait, start), when the scheduler decides it. */
  private async loadProfile(profileId: string): Promise<Result<ServerStatus>> {
    this.placementRetry = null
    this.startFailure = null
    const result = await switchProfile(this.supervisor, this.options.home, profileId, {
      waitForGpuRelease: () => this.waitForGpuRelease(),
      saferPlacementAfterOom: async (args) => {
        const budget = await this.placementBudget()
        this.updateCadence() // the reading may have started sampling with nothing running
        return planOomRetry(args, budget)
      },
    })
    if (result.ok && result.retry) this.placementRetry = { profileId: result.profileId, ...result.retry }
    // The active profile may have changed: views list it.
    this.events.emit('profiles:changed', await storeSummary(await ProfileStore.open(this.options.home), this.options.home))
    if (result.ok) return { ok: true, value: result.status }
    // A process that ran and failed speaks through its exit (the header's failure); a refusal before any process, here.
    if (!result.timings) await this.recordStartFailure(result.profileId, result.reason, result.problems)
    // Out of memory with nothing smaller that fits: the header says that, not the log's "move more experts to the CPU".
    else if (result.noFit)
      this.showStartFailure({
        profileId: result.profileId,
        problem: problem('server', result.noFit.sentence, { details: result.noFit.details }),
      })
    const problems = result.problems.map((p) => `${p.flag}: ${p.message}`).join('; ')
    const fixable = result.problems.length > 0 && result.problems.every((p) => p.replacement !== null)
    // The log's end behind Details: what llama-server itself said before it ended.
    return failed(result.problems.length > 0 ? 'profile' : 'server', problems ? `${result.reason}: ${problems}` : result.reason, {
      details: [result.noFit?.details, result.status.lastExit?.problem?.details].filter(Boolean).join('\n\n') || null,
      fix: fixable
        ? {
            label: 'Use the replacements',
            run: { command: 'profiles:apply-flag-fixes', profileId: result.profileId },
            cli: `llama-tray profiles fix ${result.profileId}`,
          }
        : null,
    })
  }

  /** What the onBattery and onGame settings do with the running profile: switch through the scheduler, or stop once requests end. */
  private parkingDeps(): ParkingDeps {
    return {
      status: () => this.supervisor.getStatus(),
      isProfile: async (id) => (await ProfileStore.open(this.options.home)).find(id) !== undefined,
      request: (id) => this.startProfile(id),
      stopWhenIdle: async () => {
        const deadline = this.awake.now() + this.settingsStore.settings.switchDrainS * 1000
        while (this.tracker?.snapshot().active && this.awake.now() < deadline) await new Promise((r) => setTimeout(r, 250))
        await this.supervisor.stop()
      },
      nameOf: async (id) => (await ProfileStore.open(this.options.home)).find(id)?.name ?? id,
    }
  }

  /** The onBattery setting over this core: switches through the scheduler (startProfile), stops once requests end. */
  private batteryPolicy(power: PowerEvents): BatteryPolicy {
    return new BatteryPolicy({
      power,
      onBattery: () => this.settingsStore.settings.onBattery,
      onSettingsChange: (listener) => this.settingsStore.onDidChange(() => listener()),
      ...this.parkingDeps(),
      say: (sentence) => {
        this.powerNotice = { sentence, kind: 'power', at: Date.now() }
        this.publishSnapshot()
      },
    })
  }

  /** The onGame setting over this core: the same parking as onBattery (stops once requests end; back through the scheduler). */
  private gamePolicy(reader: GpuProcessReader): GamePolicy {
    const settings = (): AppSettings => this.settingsStore.settings
    return new GamePolicy({
      reader,
      onGame: () => settings().onGame,
      thresholds: () => ({
        busyPct: settings().gameGpuBusyPct,
        vramMiB: settings().gameVramMiB,
        holdS: settings().gameHoldS,
        backAfterS: settings().gameBackAfterS,
      }),
      onSettingsChange: (listener) => this.settingsStore.onDidChange(() => listener()),
      ownPids: () => [this.supervisor.getStatus().pid, ...this.pinned.views().map((p) => p.pid)].filter((p): p is number => p !== null),
      gameMode: () => this.options.gameMode?.read() ?? null,
      fullScreen: () => this.options.fullScreen?.read() ?? null,
      ...this.parkingDeps(),
      say: (sentence) => {
        this.powerNotice = { sentence, kind: 'game', at: Date.now() }
        this.publishSnapshot()
      },
      changed: () => this.publishSnapshot(),
      ...(this.options.gameWatchIntervalMs ? { intervalMs: this.options.gameWatchIntervalMs } : {}),
    })
  }

  /** Why the endpoint refuses a request now (onGame stop while a game holds the GPU); null when it does not. */
  private gameRefusal(): string | null {
    return this.gameWatch?.refusal() ?? null
  }

  /**
   * The machine woke: a server that was serving is checked at once (/health, a one-token completion) instead of at
   * the watchdog's pace, and one that does not answer is replaced by a fresh start (a new session: the sleep is
   * counted neither as a crash nor as a hang).
   */
  private async afterResume(): Promise<void> {
    const status = this.supervisor.getStatus()
    if (this.resumeChecking || this.disposed || (status.state !== 'ready' && status.state !== 'sleeping')) return
    this.resumeChecking = true
    try {
      const answered = await serverAnswersAfterResume(status)
      this.lastResumeCheck = { at: Date.now(), answered }
      // Replaced or stopped meanwhile (the watchdog, the user): nothing left to do.
      if (answered || this.disposed || this.supervisor.getStatus().pid !== status.pid) return
      this.powerNotice = { sentence: 'After the sleep the server did not answer, so it was restarted.', kind: 'resume', at: Date.now() }
      await this.supervisor.restart()
    } finally {
      this.resumeChecking = false
    }
  }

  /** Keeps a refused start for the snapshot and pushes it at once (the user just clicked). */
  private async recordStartFailure(profileId: string, reason: string, problems: readonly FlagProblem[]): Promise<void> {
    const name = (await ProfileStore.open(this.options.home)).find(profileId)?.name ?? profileId
    this.showStartFailure(startFailureOf(profileId, name, reason, problems))
  }

  private showStartFailure(failure: StartFailure): void {
    this.startFailure = failure
    this.publishSnapshot()
  }

  /** A snapshot now, between ticks (with the advisor's last warnings): what the user just did shows at once. */
  private publishSnapshot(): void {
    this.latest = this.buildSnapshot(false)
    this.events.emit('snapshot', this.latest)
  }

  /** The GPU's free memory now (our server stopped), the headroom and the runtime learned for this GPU; null without GPU data. */
  private async placementBudget(): Promise<PlacementBudget | null> {
    const device = (await this.freshGpuReading())?.devices[0] ?? null
    if (!device || device.memoryFreeMiB === null) return null
    const runtimes = await GpuRuntimeStore.open(this.options.home)
    return {
      freeVramMiB: device.memoryFreeMiB,
      headroomMiB: this.settingsStore.settings.vramHeadroomMiB,
      runtimeMiB: device.name === null ? null : runtimes.runtimeMiB(device.name),
    }
  }

  /**
   * A GPU reading taken after now (the failed server's memory is back by then), waiting a few
   * sampling intervals at most; the latest reading when none comes (a stuck or stopped reader).
   */
  private async freshGpuReading(): Promise<GpuSnapshot | null> {
    const telemetry = this.options.telemetry
    if (!telemetry) return null
    const since = Date.now()
    // The failed start stopped the sampling (nothing runs): sample again for the retry's budget.
    if (!telemetry.running) await telemetry.start()
    const deadline = since + FRESH_GPU_READING_WAIT_MS
    while (telemetry.running && Date.now() < deadline) {
      // A driven service (the CLI's) samples only when asked; a timed one returns its latest.
      const gpu = (telemetry.sample?.() ?? telemetry.latest()).gpu
      if (gpu?.sampledAt != null && gpu.sampledAt >= since) return gpu
      if (gpu?.asleep) return gpu // a sleeping GPU is not read: waiting would not bring figures
      await new Promise((r) => setTimeout(r, 100))
    }
    return telemetry.latest().gpu
  }

  /** Whether the profile changed after the running server was launched (then its placement is not what runs). */
  private async profileEditedSinceLaunch(profileId: string): Promise<boolean> {
    const profile = (await ProfileStore.open(this.options.home)).find(profileId)
    return profile === undefined || this.launchedAt === null || Date.parse(profile.updatedAt) > this.launchedAt
  }

  /** After a stop, give the driver a moment to hand the VRAM back before the next load (bounded). */
  private async waitForGpuRelease(): Promise<void> {
    const telemetry = this.options.telemetry
    if (!telemetry?.running) return
    const deadline = Date.now() + 5000
    let previous = telemetry.latest().gpu?.devices[0]?.memoryUsedMiB ?? null
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250))
      const used = telemetry.latest().gpu?.devices[0]?.memoryUsedMiB ?? null
      if (used === null || (previous !== null && Math.abs(used - previous) < 64)) return
      previous = used
    }
  }

  /**
   * The fit of a profile against the GPU's free memory not counting our own
   * server (its memory comes back when it stops), and what that server holds
   * now, to compare the estimate with reality after a launch.
   */
  private async estimateFit(profileId: string): Promise<Result<FitEstimate>> {
    const device = this.options.telemetry?.latest().gpu?.devices[0] ?? null
    const status = this.supervisor.getStatus()
    const measured = this.serverGpuMiB()
    const freeNow = device?.memoryFreeMiB ?? null
    const freeVramMiB = freeNow === null ? null : freeNow + (measured ?? 0)
    try {
      // A query: the runtime is read here, and learned from launches by learnGpuRuntime.
      const runtimes = await GpuRuntimeStore.open(this.options.home)
      const gpuName = device?.name ?? null
      const running = status.profileId === profileId && status.state === 'ready'
      const report = await fitProfile(this.options.home, profileId, {
        freeVramMiB,
        headroomMiB: this.settingsStore.settings.vramHeadroomMiB,
        runtimeMiB: gpuName === null ? null : runtimes.runtimeMiB(gpuName),
      })
      // 0 is no measurement (the reading did not move, or predates the launch), not a server that holds nothing.
      return {
        ok: true,
        value: { report, freeVramMiB, measuredServerGpuMiB: running && measured !== null && measured > 0 ? measured : null },
      }
    } catch (err) {
      if (err instanceof FitError) return { ok: false, error: err.toProblem() }
      throw err
    }
  }

  /** What our server holds on the GPU now: the memory in use less what was in use just before its launch; null when unknown. */
  private serverGpuMiB(): number | null {
    const usedNow = this.options.telemetry?.latest().gpu?.devices[0]?.memoryUsedMiB ?? null
    if (!hasProcess(this.supervisor.getStatus().state) || usedNow === null || this.gpuUsedBeforeLaunchMiB === null) return null
    return Math.max(0, usedNow - this.gpuUsedBeforeLaunchMiB)
  }

  private async recordSizesOf(profileId: string): Promise<void> {
    const profile = (await ProfileStore.open(this.options.home).catch(() => null))?.find(profileId)
    if (profile) await recordModelSizes(this.options.home, [profile.model, profile.draftModel])
  }

  private onState(status: ServerStatus): void {
    this.stateHistory.record(status)
    this.history?.onState(status)
    if (status.state === 'starting') {
      this.startFailure = null // a launch is under way: the refused one is history
      this.gpuUsedBeforeLaunchMiB = this.options.telemetry?.latest().gpu?.devices[0]?.memoryUsedMiB ?? null
      this.launchedAt = Date.now()
      this.launchedAwake = this.awake.now()
    }
    // Launch to ready: the next load of this profile shows it as its estimate.
    if (status.state === 'ready' && this.launchedAwake !== null && status.profileId !== null)
      void this.loadTimes.record(status.profileId, this.awake.now() - this.launchedAwake)
    // The sizes of the files it runs: if one moves, a file of the same name and size is the one (missingFileFix).
    if (status.state === 'ready' && status.profileId !== null) void this.recordSizesOf(status.profileId)
    this.events.emit('server:state-changed', status)
    if (status.state === 'ready' || !launchInEffect(status.state)) void this.checkSavedNotRunning()
    this.options.telemetry?.setServerPid(status.pid)
    // A sleeping server keeps its tracker, which asks nothing of it until it wakes.
    if (isServing(status) && !this.tracker && !this.trackerStarting) void this.startTracker(status)
    if (!servesRequests(status.state) && this.tracker) void this.stopTracker()
    this.tracker?.setAsleep(status.state === 'sleeping')
    this.updateCadence()
    // A new state is news for the warnings (a crash, a restart): a clock at its idle pace ticks now.
    if (this.ticker !== null && this.tickerDelayMs > this.pace().baseMs) this.startTicker(0)
  }

  private async startTracker(status: ServerStatusOf<'ready' | 'sleeping'>): Promise<void> {
    this.trackerStarting = true
    try {
      const spec = this.supervisor.getLaunchSpec()
      const apiKey = spec ? await resolveApiKey(spec.args, spec.env ?? {}) : null
      const now = this.supervisor.getStatus()
      if (!servesRequests(now.state) || now.pid !== status.pid) return // it stopped or was replaced meanwhile
      // A server that sleeps when idle is polled only when its log says a task started or ended.
      const pollWhenIdle = status.sleepIdleSeconds === null
      const tracker = new GenerationTracker({
        baseUrl: serverOrigin(status.host, status.port),
        apiKey,
        pollWhenIdle,
        profileId: status.profileId ?? 'unknown',
        rolling: this.rolling,
        threads: threadsFromLog(this.supervisor.getLogs()),
        energyJ: (fromMs, toMs) => this.requestEnergyJ(fromMs, toMs),
        awakeOf: (monoMs) => this.awake.ofMono(monoMs),
        beat: this.beat,
      })
      this.tracker = tracker
      tracker.on('rate', () => this.onTrackerRate(tracker))
      tracker.start(this.supervisor.getRequestSignal())
      tracker.setAsleep(now.state === 'sleeping')
    } finally {
      this.trackerStarting = false
    }
  }

  /** A bench reads the figures as they come: the watched pace (nvidia-smi's stream at its base period) until released. */
  watch(): () => void {
    this.benchWatchers++
    this.updateCadence(this.ticker !== null)
    let released = false
    return () => {
      if (released || this.disposed) return
      released = true
      this.benchWatchers--
      this.updateCadence(this.ticker !== null)
    }
  }

  /** The GPU's energy between two epoch ms, for a bench run (BenchHost): as a request's. */
  energyJ(fromMs: number, toMs: number): number | null {
    return this.requestEnergyJ(fromMs, toMs)
  }

  /** A request's GPU energy: a fresh sample closes its span (a driven telemetry reads NVML now), then the meter answers. */
  private requestEnergyJ(fromMs: number, toMs: number): number | null {
    const telemetry = this.options.telemetry
    if (telemetry?.running && telemetry.sample) this.energy.record(Date.now(), telemetry.sample({ energy: true }).gpu?.devices[0])
    return this.energy.between(fromMs, toMs)
  }

  private async stopTracker(): Promise<void> {
    const tracker = this.tracker
    if (!tracker) return
    this.tracker = null
    this.lastGeneration = tracker.snapshot()
    this.lastHistory = tracker.history()
    await tracker.stop()
  }

  /** Poll while a server runs or the dashboard is visible; otherwise nothing (a laptop GPU may sleep). */
  private updateCadence(restart = false): void {
    if (this.disposed) return
    const wanted = this.tickerWanted()
    const telemetry = this.options.telemetry
    if (wanted) telemetry?.setGpuIntervalMs?.(gpuIntervalMs(this.pace()))
    // A fixed cadence (`run --json` prints every figure) counts as watched.
    telemetry?.setWatched?.(this.watched() || this.options.cadenceMs !== undefined)
    if (wanted && telemetry && !telemetry.running) void telemetry.start()
    if (!wanted && telemetry?.running) void telemetry.stop()
    if (wanted && (restart || !this.ticker)) this.startTicker()
    if (!wanted) this.stopTicker()
  }

  /** Someone reads the figures as they come: an open dashboard or a running bench. */
  private watched(): boolean {
    return this.dashboardVisible || this.benchWatchers > 0
  }

  private tickerWanted(): boolean {
    return launchInEffect(this.supervisor.getStatus().state) || this.pinned.anyRunning || this.dashboardVisible
  }

  private pace(): TickPace {
    const gpu = this.options.telemetry?.latest().gpu ?? null
    return {
      baseMs: this.options.cadenceMs ?? this.settingsStore.settings.pollIntervalMs,
      fixed: this.options.cadenceMs !== undefined,
      watched: this.watched(),
      active: this.tickedActive,
      gpuRead: gpu === null || gpu.backend !== null,
      gpuStream: gpu !== null && gpu.backend === 'nvidia-smi' && !gpu.stale,
      confirming: this.confirming,
    }
  }

  /** A setTimeout chain (not setInterval): each delay follows the pace, slower while idle and unwatched. */
  private startTicker(delayMs = tickDelayMs(this.pace())): void {
    this.stopTicker()
    this.tickerFollowsGpu = delayMs > 0 && followsGpuStream(this.pace())
    this.tickerDelayMs = delayMs
    this.ticker = this.beat.after(delayMs, () => {
      this.ticker = null
      this.tick()
      // A listener of the tick may have re-armed or stopped the clock meanwhile.
      if (!this.disposed && this.ticker === null && this.tickerWanted()) this.startTicker()
    })
  }

  private stopTicker(): void {
    this.ticker?.()
    this.ticker = null
  }

  /**
   * A line of the GPU stream came (or the stream broke) while the ticker is its backstop: tick now, on the
   * stream's wake. The backstop is left armed as it is: a timer cleared and armed again outside Node's timer
   * phase still wakes the process at its first expiry (libuv is not told it moved), about 1 ms of CPU per wake
   * here. Once the stream no longer sets the pace (stale, a watcher, a request), the clock takes over at once.
   */
  private onGpuFresh(): void {
    if (this.disposed || this.ticker === null || !this.tickerFollowsGpu) return
    this.tick()
    if (this.disposed || !this.tickerWanted()) return
    // A listener of the tick may have stopped or re-armed the clock meanwhile.
    if (this.ticker === null || (this.tickerFollowsGpu && !followsGpuStream(this.pace()))) this.startTicker()
  }

  /** A request started while the ticker was at its idle pace: tick now, then at the busy pace. */
  private onTrackerRate(tracker: GenerationTracker): void {
    if (this.ticker === null || this.tickerDelayMs <= this.pace().baseMs || !tracker.snapshot().active) return
    this.startTicker(0)
  }

  /** The core's one clock: telemetry samples, the snapshot is built once, every subscriber gets it. */
  private tick(): void {
    const awakeNow = this.awake.now() // a wall-clock jump since the last look is a resume (the CLI's signal): its listener checks the server
    const generation = this.tracker?.snapshot() ?? null
    // The energy counter brackets requests: read while one runs, at the tick after it, and once to start the meter.
    const energy = this.tickedActive || (generation?.active ?? false) || this.energy.empty
    this.tickedActive = generation?.active ?? false
    this.options.telemetry?.setServerIdle?.(generation !== null && !generation.active)
    this.options.telemetry?.sample?.({ energy })
    if (energy) this.energy.record(Date.now(), this.options.telemetry?.latest().gpu?.devices[0])
    this.latest = this.buildSnapshot(true, generation ?? this.lastGeneration)
    const confirming = this.confirmation.update(this.options.warningsPending?.() ?? false, awakeNow)
    if (confirming !== this.confirming) {
      this.confirming = confirming
      this.updateCadence() // nvidia-smi's period; the ticker re-arms after the tick at the new pace
    }
    this.events.emit('snapshot', this.latest)
  }

  private buildSnapshot(
    sampleWarnings: boolean,
    generation: GenerationSnapshot | null = this.tracker?.snapshot() ?? this.lastGeneration,
  ): Snapshot {
    const reading: TelemetryReading = this.options.telemetry?.latest() ?? { gpu: null, cpu: null }
    const status = this.supervisor.getStatus()
    const base = buildSnapshot(status, {
      // The figures go with their server: none once it stopped or failed (the charts keep their history).
      generation: servesRequests(status.state) ? generation : null,
      gpu: reading.gpu,
      cpu: reading.cpu,
    })
    const advised = !sampleWarnings
      ? (this.latest?.warnings ?? [])
      : this.options.warnings
        ? this.options.warnings(base, this.settingsStore.settings)
        : []
    const warnings = this.pendingFixes.merge(advised, status, this.launchedAt, this.relaunching)
    return {
      ...base,
      warnings,
      endpoint: this.endpointStatus(),
      ...this.loadProgress(status),
      placementRetry: this.currentPlacementRetry(status),
      startFailure: this.startFailure,
      pendingSwitch: this.scheduler.pending(),
      pinned: this.pinned.views(),
      savedNotRunning:
        this.savedNotRunning !== null && this.savedNotRunning === status.profileId ? { profileId: this.savedNotRunning } : null,
      power: this.options.power?.current() ?? null,
      powerNotice: this.powerNotice,
      game: this.gameWatch?.game ?? null,
    }
  }

  /**
   * Compares the running profile's stored launch with the one its server runs (after a save, and at each ready):
   * a difference is "Applies after restart" until the new settings run. A safer placement after an out-of-memory
   * load differs from the profile on purpose, and is said by its own notice.
   */
  private async checkSavedNotRunning(): Promise<void> {
    const status = this.supervisor.getStatus()
    const running = launchInEffect(status.state) ? this.supervisor.getLaunchSpec() : null
    const retried = this.currentPlacementRetry(status) !== null
    const differs = running !== null && !retried && (await savedDiffersFromRunning(this.options.home, running))
    const next = differs && running ? running.profileId : null
    if (next === this.savedNotRunning) return
    this.savedNotRunning = next
    this.publishSnapshot()
  }

  /** The retry's notice while the server it started runs (a stop, another profile or a failure ends it). */
  private currentPlacementRetry(status: ServerStatus): PlacementRetryNotice | null {
    const retry = this.placementRetry
    if (retry === null || status.profileId !== retry.profileId || !launchInEffect(status.state)) return null
    return retry
  }

  private loadProgress(status: ServerStatus): Pick<Snapshot, 'load'> {
    if ((status.state !== 'starting' && status.state !== 'loading') || this.launchedAt === null) return {}
    const id = status.profileId
    return {
      load: {
        profileId: id,
        startedAt: this.launchedAwake === null ? this.launchedAt : this.awake.wallOf(this.launchedAwake),
        expectedMs: id === null ? null : this.loadTimes.expectedMs(id),
        previousLoads: id === null ? 0 : this.loadTimes.loads(id),
      },
    }
  }
}
