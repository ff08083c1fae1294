import type { OnGameSetting } from './game'

/** User settings shared by the core, the shell and the dashboard. */
export interface AppSettings {
  /** Warn when free VRAM drops under this (the seeds' 1.5 GB). */
  readonly vramHeadroomMiB: number
  /** Warn when the GPU is hotter than this. */
  readonly gpuTemperatureWarnC: number
  /**
   * Extra process names counted as CPU-heavy apps, besides the built-in list (Discord, browsers, Steam…; heavy-apps.json replaces that
   * list).
   */
  readonly heavyApps: readonly string[]
  /** Telemetry and snapshot cadence while a server runs or the dashboard is visible. */
  readonly pollIntervalMs: number
  readonly notifications: boolean
  readonly startWithSystem: boolean
  /** Extra folders searched for GGUF models (besides LM Studio's, the Hugging Face cache and ~/models). */
  readonly modelDirs: readonly string[]
  /** A profile to start when the app starts; null for none. */
  readonly startProfileOnLaunch: string | null
  /** Off by default: the dashboard must not take VRAM from the model. */
  readonly hardwareAcceleration: boolean
  /** The one port clients use (llama-server's own default): the endpoint's, else that of every profile that sets no --port. */
  readonly port: number
  /** One OpenAI-compatible endpoint on `port` in front of the supervised server, which then listens on a private loopback port. */
  readonly endpoint: boolean
  /** A request whose `model` names another profile switches to it; off: it is refused with the name of the active profile. */
  readonly switchOnRequest: boolean
  /** Requests held while the server starts, restarts or switches; more are refused at once. */
  readonly heldRequestsMax: number
  /** How long a held request waits for the server before it gets an error. */
  readonly heldRequestWaitS: number
  /** A switch waits this long for the running profile's requests to finish; then they end with an error naming the switch. */
  readonly switchDrainS: number
  /** While requests for another profile wait, the running profile stays loaded at least this long (no back-and-forth). */
  readonly switchMinResidencyS: number
  /**
   * At most once a day, ask GitHub whether a newer llama.cpp release exists (a notice only: nothing is downloaded); the last check is in
   * <home>/engine-updates.json.
   */
  readonly engineUpdateCheck: boolean
  /**
   * Web origins (e.g. https://chat.example) whose pages may call the endpoint from a browser; none by default (see README "The endpoint").
   */
  readonly endpointAllowedOrigins: readonly string[]
  /** Host names the endpoint answers to besides localhost and this machine's names and addresses (against DNS rebinding). */
  readonly endpointAllowedHosts: readonly string[]
  /** The largest request body the endpoint accepts; a larger one gets a 413. */
  readonly endpointMaxBodyMiB: number
  /** After ready, /health is asked this often (seconds; 0 turns the watchdog off)… */
  readonly watchdogIntervalS: number
  /** …and this many unanswered probes in a row, with no progress in the log, stop and restart the server (10 × 3: about 30 s). */
  readonly watchdogMisses: number
  /**
   * On battery: `keep` the server as it runs, `stop` it, or switch to this profile id; back on AC the profile that ran
   * before returns.
   */
  readonly onBattery: string
  /**
   * When a game takes the NVIDIA GPU (another process keeps its 3D engine busy with enough memory, or Game Mode is
   * on): `keep` the server, let it `sleep` (stopped; a request wakes it), or `stop` it; it returns after the game.
   */
  readonly onGame: OnGameSetting
  /** A process counts as a game while its 3D-engine use is over this %… */
  readonly gameGpuBusyPct: number
  /** …and it holds more than this much dedicated GPU memory… */
  readonly gameVramMiB: number
  /** …for this many seconds. */
  readonly gameHoldS: number
  /** The profile returns this many seconds after the game ends. */
  readonly gameBackAfterS: number
  /** The usage history keeps requests one by one this many months, then rolls them up into their days (never dropped). */
  readonly historyKeepMonths: number
}

export const DEFAULT_SETTINGS: AppSettings = {
  vramHeadroomMiB: 1536,
  gpuTemperatureWarnC: 85,
  heavyApps: [],
  pollIntervalMs: 1000,
  notifications: true,
  startWithSystem: false,
  modelDirs: [],
  startProfileOnLaunch: null,
  hardwareAcceleration: false,
  port: 8080,
  endpoint: true,
  switchOnRequest: true,
  heldRequestsMax: 64,
  heldRequestWaitS: 300,
  switchDrainS: 60,
  switchMinResidencyS: 15,
  engineUpdateCheck: true,
  endpointAllowedOrigins: [],
  endpointAllowedHosts: [],
  endpointMaxBodyMiB: 32,
  watchdogIntervalS: 10,
  watchdogMisses: 3,
  onBattery: 'keep',
  onGame: 'keep',
  gameGpuBusyPct: 50,
  gameVramMiB: 1024,
  gameHoldS: 10,
  gameBackAfterS: 30,
  historyKeepMonths: 12,
}
