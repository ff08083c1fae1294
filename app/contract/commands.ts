import type {
  BackendChoice,
  EngineInstallPlan,
  EngineInstallProgress,
  EngineInstallResult,
  EngineListing,
  EngineUpdateCheck,
  EngineUpdateReport,
  InstalledEngineSummary,
} from './engines'
import type { FitEstimate, LlamaFitComparison } from './fit'
import type { GenerationHistory } from './generation'
import type { HistoryOverview, HistoryQuery } from './history'
import type { AppliedRecipeResult, ModelPullProgress, ModelPullResult, ModelRecipeSummary } from './models'
import type { BenchProgress, BenchReport } from './bench'
import type { ImportCommandOptions, ImportOffer } from './import-wording'
import type {
  Discovery,
  ExportFormat,
  FlagProblemSummary,
  ProfileDocument,
  ProfileEdit,
  ProfileFileRole,
  ProfileStoreSummary,
  ProfileSummary,
} from './profile'
import type { Problem } from './problem'
import type { ServerStatus } from './server-state'
import type { AppSettings } from './settings'
import type { Snapshot } from './snapshot'

/**
 * What to launch: an executable and its arguments, exactly as they will be
 * passed (no shell). The supervisor adds --host/--port when they are absent.
 */
export interface LaunchSpec {
  readonly profileId: string
  readonly exe: string
  readonly args: readonly string[]
  /** Extra environment variables for the child (the inherited env is scrubbed first). */
  readonly env?: Readonly<Record<string, string>>
}

/** Expected failures come back as values, not exceptions: a Problem (sentence, fix, details) unless a command says otherwise. */
export type Result<T, E = Problem> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E }

/** An import's result: a refusal that can be overridden names how ("force": Import anyway, "replace": Replace). */
export type ImportResult =
  { readonly ok: true; readonly value: ProfileSummary } | { readonly ok: false; readonly error: Problem; readonly offer?: ImportOffer }

/**
 * Requests with a reply (renderer → main invoke). Return types are promises;
 * expected failures come back as Result values. The renderer names profiles by
 * id, never an executable or a command to run: main resolves the profile to a
 * LaunchSpec, so a compromised renderer cannot spawn programs.
 */
export interface CommandChannels {
  /** Starts a profile; if another runs, this is a switch (stop, wait, start). */
  'server:start': (profileId: string) => Promise<Result<ServerStatus>>
  'server:stop': () => Promise<ServerStatus>
  /** The waiting switch (Snapshot.pendingSwitch) happens now: the running requests end with an error naming it. Its target's id. */
  'server:switch-now': () => Promise<Result<string>>
  'server:restart': () => Promise<Result<ServerStatus>>
  'server:status': () => Promise<ServerStatus>
  'server:logs': (maxLines: number) => Promise<readonly string[]>
  /** The newest log lines of a pinned profile's server, oldest first; [] when that profile is not pinned or not served. */
  'server:pinned-logs': (profileId: string, maxLines: number) => Promise<readonly string[]>
  'snapshot:latest': () => Promise<Snapshot | null>
  /** The running (or last) server's per-second generation rates and finished requests: past points, kept out of every snapshot. */
  'generation:history': () => Promise<GenerationHistory>
  /** The usage history (history.sqlite): tokens and speeds per day and profile, what changed between sessions, bench runs, today. */
  'history:overview': (query: HistoryQuery) => Promise<HistoryOverview>
  /** Saves every request of the usage history where the user chooses (main's save dialog): the path, or null when cancelled. */
  'history:export': (format: 'csv' | 'json' | 'md') => Promise<Result<string | null>>
  /** The dashboard tells when it is shown: telemetry polls only while it is, or while a server runs. */
  'dashboard:visible': (visible: boolean) => Promise<void>
  /** Shows the dashboard window (the tray popover's "Open dashboard"); the popover closes. Headless there is none: nothing happens. */
  'dashboard:open': () => Promise<void>
  'profiles:list': () => Promise<ProfileStoreSummary>
  'profiles:get': (profileId: string) => Promise<ProfileDocument | null>
  /** Flags the profile's binary would reject or ignore, with the known replacements. */
  'profiles:check': (profileId: string) => Promise<Result<readonly FlagProblemSummary[]>>
  'profiles:update': (profileId: string, edit: ProfileEdit) => Promise<Result<ProfileSummary>>
  /** Opens main's file dialog to choose the binary, model or draft; ok(null) when cancelled. */
  'profiles:choose-file': (profileId: string, role: ProfileFileRole) => Promise<Result<ProfileSummary | null>>
  /** Creates a profile from a pasted llama-server command line (stored, not run). */
  'profiles:import': (commandLine: string, name: string | null, options?: ImportCommandOptions) => Promise<ImportResult>
  /** Replaces what a profile runs with an edited command line (bash, cmd or PowerShell); its id, name and notes stay. */
  'profiles:set-command': (profileId: string, commandLine: string) => Promise<Result<ProfileSummary>>
  'profiles:export': (profileId: string, format: ExportFormat) => Promise<Result<string>>
  'profiles:duplicate': (profileId: string) => Promise<Result<ProfileSummary>>
  /** Deletes a profile; main keeps it so that profiles:undo-delete can bring it back. */
  'profiles:delete': (profileId: string) => Promise<Result<ProfileSummary>>
  'profiles:undo-delete': (profileId: string) => Promise<Result<ProfileSummary>>
  /** Applies the known replacements for the flags the profile's binary rejects. */
  'profiles:apply-flag-fixes': (profileId: string) => Promise<Result<ProfileSummary>>
  /**
   * Runs the profile beside the active one as its own server (while the core serves); refused, with the sentence, when
   * the active and the pinned profiles do not fit the GPU together.
   */
  'profiles:pin': (profileId: string) => Promise<Result<ProfileSummary>>
  /** Stops the pinned profile's server and keeps it unpinned. */
  'profiles:unpin': (profileId: string) => Promise<Result<ProfileSummary>>
  /**
   * Finds llama-server binaries and GGUF models on this machine (PATH, install folders, LM Studio and HF caches); main keeps the list so
   * items are named by id.
   */
  'profiles:discover': () => Promise<Result<Discovery>>
  /** Creates a profile from items of the last discovery, by id, with starter settings for the model. */
  'profiles:create-discovered': (
    binaryId: string,
    modelId: string,
    draftModelId: string | null,
    name: string | null,
  ) => Promise<Result<ProfileSummary>>
  /** The VRAM estimate of a profile and the --n-cpu-moe that keeps the headroom free (see FitEstimate). */
  'fit:estimate': (profileId: string) => Promise<Result<FitEstimate>>
  /**
   * Asks llama.cpp's own fit (llama-fit-params beside the profile's llama-server) what it would place, beside ours. Takes seconds: it makes
   * test allocations on the GPU.
   */
  'fit:llama-plan': (profileId: string) => Promise<Result<LlamaFitComparison>>
  /**
   * Benchmarks profiles one after another (one profile: a bench; several: a compare with ratios against the first). Progress comes as
   * bench:progress events.
   */
  'bench:run': (profileIds: readonly string[], options: { readonly runs: number; readonly tokens: number }) => Promise<Result<BenchReport>>
  /** Cancels the running bench; the server is left as it was before. */
  'bench:cancel': () => Promise<void>
  /** Stored bench reports, newest first. */
  'bench:history': (max: number) => Promise<readonly BenchReport[]>
  /**
   * Sweeps --n-cpu-moe around the fit's suggestion (and the draft on and off), skipping settings that leave less
   * than the headroom free, and recommends the fastest; with saveAs, stores it as a new profile. Progress and
   * cancellation as bench:run.
   */
  'bench:tune': (
    profileId: string,
    options: { readonly runs: number; readonly tokens: number; readonly saveAs: string | null },
  ) => Promise<Result<BenchReport>>
  /** A stored report (named by its createdAt) as a Markdown table or CSV rows, for pasting into an issue or a spreadsheet. */
  'bench:export': (createdAt: string, format: 'markdown' | 'csv') => Promise<Result<string>>
  /** Applies a warning's one-click fix to the profile it concerns. */
  'warnings:apply-fix': (warningId: string) => Promise<Result<ProfileSummary>>
  /** Stops showing a warning for the profile it concerns (kept in <home>/advisor-mutes.json); answers that profile's mutes. */
  'warnings:mute': (warningId: string) => Promise<Result<readonly string[]>>
  /** A profile's muted warnings: rule ids ("live.heavy-apps") or findings ("lint.duplicate-flag:-vhad"). */
  'warnings:muted': (profileId: string) => Promise<readonly string[]>
  /** Shows a muted warning again; answers the profile's remaining mutes. */
  'warnings:unmute': (profileId: string, key: string) => Promise<Result<readonly string[]>>
  /**
   * Downloads and installs llama.cpp's release for this machine (backend `auto`: from the GPU; tag null: the latest); progress comes as
   * engines:progress events.
   */
  'engines:install': (options: { readonly backend: BackendChoice; readonly tag: string | null }) => Promise<Result<EngineInstallResult>>
  /**
   * What engines:install would download for these options (the backend `auto` picks, the GPU that decided it, the archives and their
   * sizes); downloads nothing.
   */
  'engines:plan': (options: { readonly backend: BackendChoice; readonly tag: string | null }) => Promise<Result<EngineInstallPlan>>
  /** Installed engines and, apart, binaries found elsewhere. */
  'engines:list': () => Promise<Result<EngineListing>>
  /** Removes an installed engine; refused while a profile uses it (unless force) or the running server does. */
  'engines:remove': (engineId: string, force: boolean) => Promise<Result<InstalledEngineSummary>>
  /** Asks GitHub whether a newer release exists; downloads nothing. */
  'engines:check-update': () => Promise<Result<EngineUpdateCheck>>
  /**
   * Pulls a GGUF ("org/name[:quant]", or `file` by name) from the Hugging Face Hub into its cache, resumed and sha256-verified; progress
   * comes as models:progress events.
   */
  'models:pull': (ref: string, file: string | null) => Promise<Result<ModelPullResult>>
  /** The one-click setups (a model, its draft and a fitted profile). */
  'models:recipes': () => Promise<readonly ModelRecipeSummary[]>
  /**
   * Pulls a recipe's model and draft (progress as models:progress events) and stores its profile with --n-cpu-moe fitted to this GPU's free
   * VRAM.
   */
  'models:apply-recipe': (recipeId: string) => Promise<Result<AppliedRecipeResult>>
  /**
   * The notice of a newer release: checked at most once a day (setting engineUpdateCheck; null when off, not yet known or nothing is
   * installed).
   */
  'engines:update-notice': () => Promise<EngineUpdateCheck | null>
  /**
   * Installs the newest release beside the profile's engine and moves the profile only if its bench (old and new alternated, bench:progress
   * events) finds it loads and is not slower.
   */
  'engines:update': (profileId: string) => Promise<Result<EngineUpdateReport>>
  /** Points a profile back at the binary it had before its last engine update. */
  'engines:rollback': (profileId: string) => Promise<Result<{ readonly profileId: string; readonly binary: string }>>
  'settings:get': () => Promise<AppSettings>
  'settings:set': (changes: Partial<AppSettings>) => Promise<Result<AppSettings>>
  'shell:open-logs-folder': () => Promise<void>
  /** The one-screen diagnostics summary (versions, GPU, states, profile, log tail) with keys, tokens and the user name redacted. */
  'diagnostics:summary': () => Promise<Result<string>>
  /** Main's save dialog, then the redacted diagnostics zip there: ok(the path), ok(null) when cancelled. */
  'diagnostics:save': () => Promise<Result<string | null>>
}

/** Pushed events (main → renderer). */
export interface EventChannels {
  'server:state-changed': (status: ServerStatus) => void
  /** New log lines, batched (at most a few pushes per second). */
  'server:log': (lines: readonly string[]) => void
  /** New log lines of a pinned profile's server, batched like 'server:log'. */
  'server:pinned-log': (profileId: string, lines: readonly string[]) => void
  /** Once per poll interval while a server runs or the dashboard is visible. */
  snapshot: (snapshot: Snapshot) => void
  'profiles:changed': (summary: ProfileStoreSummary) => void
  'settings:changed': (settings: AppSettings) => void
  'bench:progress': (progress: BenchProgress) => void
  'engines:progress': (progress: EngineInstallProgress) => void
  'models:progress': (progress: ModelPullProgress) => void
}

export type CommandName = keyof CommandChannels
export type EventName = keyof EventChannels

/** 'profiles:undo-delete' → 'profilesUndoDelete'. */
type CamelCase<S extends string> = S extends `${infer A}:${infer B}`
  ? `${CamelCase<A>}${Capitalize<CamelCase<B>>}`
  : S extends `${infer A}-${infer B}`
    ? `${A}${Capitalize<CamelCase<B>>}`
    : S

/** The method name the preload exposes for a channel: commands camelCased, events prefixed with "on". */
export function commandMethodName<C extends CommandName>(channel: C): CamelCase<C> {
  return channel.replace(/[:-]([a-z])/g, (_m, c: string) => c.toUpperCase()) as CamelCase<C>
}
export function eventMethodName<E extends EventName>(channel: E): `on${Capitalize<CamelCase<E>>}` {
  const camel = commandMethodName(channel as unknown as CommandName) as string
  return `on${camel.charAt(0).toUpperCase()}${camel.slice(1)}` as `on${Capitalize<CamelCase<E>>}`
}

/**
 * What the preload exposes as window.llamaTray: one function per command
 * (serverStart, profilesImport, …) and one subscription per event
 * (onServerStateChanged, onSnapshot, …), each returning its unsubscribe.
 */
export type LlamaTrayApi = {
  readonly [C in CommandName as CamelCase<C>]: CommandChannels[C]
} & {
  readonly [E in EventName as `on${Capitalize<CamelCase<E>>}`]: (listener: EventChannels[E]) => () => void
}

/** Every command channel, for the preload's allow-list and the handler table. */
export const COMMAND_NAMES: readonly CommandName[] = [
  'server:start',
  'server:stop',
  'server:switch-now',
  'server:restart',
  'server:status',
  'server:logs',
  'server:pinned-logs',
  'snapshot:latest',
  'generation:history',
  'history:overview',
  'history:export',
  'dashboard:visible',
  'dashboard:open',
  'profiles:list',
  'profiles:get',
  'profiles:check',
  'profiles:update',
  'profiles:choose-file',
  'profiles:import',
  'profiles:set-command',
  'profiles:export',
  'profiles:duplicate',
  'profiles:delete',
  'profiles:undo-delete',
  'profiles:apply-flag-fixes',
  'profiles:pin',
  'profiles:unpin',
  'profiles:discover',
  'profiles:create-discovered',
  'fit:estimate',
  'fit:llama-plan',
  'bench:run',
  'bench:cancel',
  'bench:history',
  'bench:tune',
  'bench:export',
  'warnings:apply-fix',
  'warnings:mute',
  'warnings:muted',
  'warnings:unmute',
  'engines:install',
  'engines:plan',
  'engines:list',
  'engines:remove',
  'engines:check-update',
  'models:pull',
  'models:recipes',
  'models:apply-recipe',
  'engines:update-notice',
  'engines:update',
  'engines:rollback',
  'settings:get',
  'settings:set',
  'shell:open-logs-folder',
  'diagnostics:summary',
  'diagnostics:save',
]

export const EVENT_NAMES: readonly EventName[] = [
  'server:state-changed',
  'server:log',
  'server:pinned-log',
  'snapshot',
  'profiles:changed',
  'settings:changed',
  'bench:progress',
  'engines:progress',
  'models:progress',
]
