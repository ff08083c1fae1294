import type { Problem } from './problem'

/**
 * The supervisor's states.
 *
 * stopped → starting → loading → ready → stopping → stopped, plus:
 * - downloading: a `-hf` launch whose llama-server fetches its model before it
 *   loads (progress in ServerStatus.download); the readiness deadline starts
 *   when the download ends;
 * - sleeping: a ready server that unloaded its model after --sleep-idle-seconds
 *   of idleness (its log says "entering sleeping state"); the next request wakes
 *   it ("exiting sleeping state") and it is ready again. Calm, not a fault;
 *   it is never restarted nor timed out.
 * - backoff: waiting to restart after an unexpected exit;
 * - crashloop: gave up after too many unstable exits in a row;
 * - errored: a deterministic failure (bad flag, missing model, out of memory
 *   at load…) that restarting cannot fix.
 */
export type ServerStateKind =
  'stopped' | 'starting' | 'downloading' | 'loading' | 'ready' | 'sleeping' | 'stopping' | 'backoff' | 'crashloop' | 'errored'

export const SERVER_STATE_KINDS: readonly ServerStateKind[] = [
  'stopped',
  'starting',
  'downloading',
  'loading',
  'ready',
  'sleeping',
  'stopping',
  'backoff',
  'crashloop',
  'errored',
]

/** Why a server ended, diagnosed from its exit and its last log lines. */
export type FailureKind =
  | 'binary-missing'
  | 'binary-not-executable'
  | 'batch-file'
  | 'model-missing'
  | 'model-corrupt'
  | 'draft-missing'
  | 'flag-unknown'
  | 'flag-removed'
  | 'flag-value'
  | 'port-in-use'
  | 'exposed-without-key'
  | 'out-of-memory-weights'
  | 'out-of-memory-kv'
  | 'out-of-memory-compute'
  | 'out-of-memory'
  | 'draft-rejected'
  | 'assertion'
  | 'load-failed'
  | 'download-failed'
  | 'ready-timeout'
  | 'spawn-failed'
  | 'crashed'
  /** Ready, then stopped answering /health with no progress in its log (the watchdog stopped and restarted it). */
  | 'unresponsive'

export interface ExitInfo {
  readonly code: number | null
  readonly signal: string | null
  /** One line a user can read: what went wrong. Null for a clean, requested stop. */
  readonly reason: string | null
  /** What to do about it, where we know. */
  readonly hint: string | null
  readonly kind: FailureKind | null
  /**
   * The failure as every view shows it: cause and fix as sentences, the exit code and the last log lines behind
   * "Details". Null for a requested stop.
   */
  readonly problem: Problem | null
}

/** Where a live llama-server process of ours runs and listens. */
export interface ServerProcess {
  readonly pid: number
  readonly host: string
  readonly port: number
}

/** The fields of a state that has no process (yet): starting before the spawn, and every state after an exit. */
interface NoProcess {
  readonly pid: null
  readonly host: null
  readonly port: null
}

/** What every state has: the launch (kept after a stop) and how the last process ended. */
interface StatusOfEveryState {
  readonly profileId: string | null
  readonly exe: string | null
  /** How the last process ended, kept through later starts (the status shows the last crash while it runs again). */
  readonly lastExit: ExitInfo | null
  /** Automatic restarts since the last user start. */
  readonly restarts: number
}

/** A failed launch's end: the exit that caused it is always known. */
interface Failed extends StatusOfEveryState {
  readonly lastExit: ExitInfo
}

/** A ready process: since when, and its --sleep-idle-seconds (null when it never sleeps). */
interface Serving extends StatusOfEveryState, ServerProcess {
  /** Epoch ms when the current process became ready (kept while it sleeps). */
  readonly readySince: number
  /** The launch's --sleep-idle-seconds: the server unloads its model after this much idleness; null when it never sleeps. */
  readonly sleepIdleSeconds: number | null
}

/**
 * The server's status, one record per state with only the fields that state has (like the supervisor's own
 * `SupervisorState`): a pid, host and port while a process runs, a ready time while it serves, a restart time
 * in backoff, a download while downloading; `lastExit` is always set in the failed states.
 */
export type ServerStatus =
  | (StatusOfEveryState & NoProcess & { readonly state: 'stopped' })
  /** Before the spawn there is no process yet. */
  | (StatusOfEveryState & (ServerProcess | NoProcess) & { readonly state: 'starting' })
  | (StatusOfEveryState & ServerProcess & { readonly state: 'downloading'; readonly download: DownloadInfo })
  /** progress: what the server itself reports of its load (its child channel); null where it does not (then the estimate from past loads). */
  | (StatusOfEveryState & ServerProcess & { readonly state: 'loading'; readonly progress?: ServerLoadProgress | null })
  | (Serving & { readonly state: 'ready' })
  /** waking: the server's own progress while a request reloads the model; null while it sleeps or does not report. */
  | (Serving & { readonly state: 'sleeping'; readonly waking?: ServerLoadProgress | null })
  | (StatusOfEveryState & ServerProcess & { readonly state: 'stopping' })
  /** restartAt: epoch ms when the pending restart fires. */
  | (Failed & NoProcess & { readonly state: 'backoff'; readonly restartAt: number })
  | (Failed & NoProcess & { readonly state: 'crashloop' })
  | (Failed & NoProcess & { readonly state: 'errored' })

/** The status of a given state. */
export type ServerStatusOf<K extends ServerStateKind> = Extract<ServerStatus, { readonly state: K }>

/** The process of a status, in the states that have one. */
export function serverProcess(status: ServerStatus): ServerProcess | null {
  return status.pid === null ? null : { pid: status.pid, host: status.host, port: status.port }
}

/**
 * How far llama-server's own load has come, as its child channel reports it (llama.cpp's server-context.cpp):
 * the stages of this load in order ("text_model", then "spec_model" for a draft or MTP head, "mmproj_model"),
 * the current one, and how far it is (0–1; null for a stage that reports no fraction, like the projector).
 */
export interface ServerLoadProgress {
  readonly stage: string
  readonly stages: readonly string[]
  readonly value: number | null
}

const STAGE_WORDS: Readonly<Record<string, string>> = {
  text_model: 'text model',
  spec_model: 'draft model',
  mmproj_model: 'vision projector',
}

/** A load in a few words: "Loading text model 42 %", "Loading draft model 7 %" (the tray, the popover, the CLI). */
export function loadProgressSentence(p: ServerLoadProgress): string {
  const stage = STAGE_WORDS[p.stage] ?? p.stage.replace(/_/g, ' ')
  return p.value === null ? `Loading ${stage}` : `Loading ${stage} ${Math.floor(p.value * 100)} %`
}

/** The server's own progress in a status, as loadProgressSentence words it: a load, or a wake from sleep ("Waking: …"); null when it reports none. */
export function serverProgressSentence(status: ServerStatus): string | null {
  if (status.state === 'loading' && status.progress) return loadProgressSentence(status.progress)
  if (status.state === 'sleeping' && status.waking) return `Waking: ${loadProgressSentence(status.waking).toLowerCase()}`
  return null
}

/** A download under way: llama-server's `-hf` fetching a model into the Hugging Face cache. */
export interface DownloadInfo {
  readonly repo: string
  /** The file's path in the repo (or the start of its sha256 when the Hub did not say). */
  readonly file: string
  readonly bytes: number
  /** Its size from the Hub API; null when unknown. */
  readonly total: number | null
  readonly rateBps: number
}

/** A download in a few words: "1.2 of 20.1 GB (6 %), 25 MB/s". */
export function downloadDetail(d: DownloadInfo | null | undefined): string {
  if (!d) return 'fetching the model'
  const gb = (b: number): string => (b >= 1e9 ? `${(b / 1e9).toFixed(1)} GB` : `${(b / 1e6).toFixed(1)} MB`)
  const of = d.total ? ` of ${gb(d.total)} (${Math.floor((d.bytes / d.total) * 100)} %)` : ''
  const rate = d.rateBps > 0 ? `, ${(d.rateBps / 1e6).toFixed(d.rateBps >= 1e7 ? 0 : 1)} MB/s` : ''
  return `${gb(d.bytes)}${of}${rate}`
}

/** A download in one sentence (the status line, the dashboard). */
export function downloadingSentence(d: DownloadInfo | null | undefined): string {
  return `Downloading ${d?.file ?? 'the model'}: ${downloadDetail(d)}`
}

/** States in which a llama-server process of ours is alive. */
export function hasProcess(state: ServerStateKind): boolean {
  return (
    state === 'starting' ||
    state === 'downloading' ||
    state === 'loading' ||
    state === 'ready' ||
    state === 'sleeping' ||
    state === 'stopping'
  )
}

/** The server answers requests: ready, or sleeping (the request wakes it; it is forwarded, never held). */
export function servesRequests(state: ServerStateKind): boolean {
  return state === 'ready' || state === 'sleeping'
}

/** The status of a server that answers requests (ready or sleeping), with its process and ready time. */
export function isServing(status: ServerStatus): status is ServerStatusOf<'ready' | 'sleeping'> {
  return servesRequests(status.state)
}

/** What sleeping means for the user, after the word "Sleeping" (the tray's second line). */
export function sleepingDetail(sleepIdleSeconds: number | null | undefined): string {
  const after = sleepIdleSeconds ? ` after ${sleepIdleSeconds} s idle` : ' while idle'
  return `model unloaded${after}, VRAM freed; the next request wakes it`
}

/** A sleeping server in one sentence (the status line, the dashboard). */
export function sleepingSentence(sleepIdleSeconds: number | null | undefined): string {
  return `Sleeping: ${sleepingDetail(sleepIdleSeconds)}`
}

/** A launch is in effect: its process is alive or a restart is pending (a stop has something to stop). */
export function launchInEffect(state: ServerStateKind): boolean {
  return hasProcess(state) || state === 'backoff'
}

/** The server runs or is about to (starting, loading, ready, or a restart pending); not while it stops. */
export function isRunning(state: ServerStateKind): boolean {
  return launchInEffect(state) && state !== 'stopping'
}
