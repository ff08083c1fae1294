import type { EndpointStatus } from './endpoint'
import type { GenerationSnapshot, RequestTimings } from './generation'
import type { ProfileSettingsDocument } from './profile'
import type { Problem } from './problem'
import type { ServerStatus } from './server-state'
import type { PowerStatus } from './power'
import type { GameHold } from './game'
import type { CpuSnapshot, GpuSnapshot } from './telemetry'
import type { Warning } from './warnings'

/** Everything a view needs, pushed once per interval. */
export interface Snapshot {
  /** Epoch ms. */
  readonly time: number
  readonly server: ServerStatus
  readonly generation: GenerationSnapshot | null
  readonly gpu: GpuSnapshot | null
  readonly cpu: CpuSnapshot | null
  readonly warnings: readonly Warning[]
  /** The one endpoint clients use, when it runs (then `server.port` is a private port): views show its address. */
  readonly endpoint?: EndpointStatus | null
  /** Present while the server starts or loads: the progress bar's estimate. */
  readonly load?: LoadProgress | null
  /** The running server was started with a safer placement after its load ran out of GPU memory; null otherwise. */
  readonly placementRetry?: PlacementRetryNotice | null
  /**
   * The last start or switch the user asked for, refused before any process ran; null once another start, a stop or a ready server ends it.
   */
  readonly startFailure?: StartFailure | null
  /** A switch that waits for the running profile's requests (or its minimum residency); null when none. */
  readonly pendingSwitch?: PendingSwitch | null
  /**
   * The running profile was saved with settings its server does not run yet: they apply after a restart ("Apply and
   * restart" starts it again); null when the server runs what is stored.
   */
  readonly savedNotRunning?: { readonly profileId: string } | null
  /** The pinned profiles' servers, each beside the active one on its own private port (the core always sets it; [] when none). */
  readonly pinned?: readonly PinnedServerView[]
  /** The machine's power source (AC or battery, the charge); absent where the core reads none. */
  readonly power?: PowerStatus | null
  /** What the onBattery setting did last (one sentence; `at` epoch ms tells a new one): said once by each view. */
  readonly powerNotice?: PowerNotice | null
  /** A game holding the NVIDIA GPU (the onGame watch saw it) and what was done for it; null when none or not watched. */
  readonly game?: GameHold | null
}

/** What a power notice is about: the power source (onBattery), a sleep and resume, or a game on the GPU (onGame). */
export type PowerNoticeKind = 'power' | 'resume' | 'game'

/**
 * One thing the power, resume or game policy did: stopped or switched on battery, brought the profile back on AC,
 * restarted a server after the sleep, freed the VRAM for a game or brought the profile back after it.
 */
export interface PowerNotice {
  readonly sentence: string
  /** Who said it (the app titles its notification by it). */
  readonly kind: PowerNoticeKind
  readonly at: number
}

/** What every state of a pinned profile's server has. */
interface PinnedServerCommon {
  readonly profileId: string
  readonly name: string
  /** Its automatic restarts since it was pinned or served (its own restart policy, apart from the active server's). */
  readonly restarts: number
  /** Its own generation figures, from its /slots and its log; null before it first served. */
  readonly generation: PinnedGeneration | null
}

/** Its process: the pid and its private 127.0.0.1 port. */
interface PinnedProcess {
  readonly pid: number
  readonly port: number
}

interface PinnedNoProcess {
  readonly pid: null
  readonly port: null
}

/** Why it last stopped or could not start, as every view shows a problem; null when nothing went wrong. */
interface PinnedExit {
  readonly lastExit: Problem | null
}

/**
 * One pinned profile's server: its own llama-server, restart policy and log, beside the active one. One record per
 * state, like `ServerStatus`: a pid and port while a process runs, none before its spawn or after its exit, and the
 * problem that ended it always set in the failed states.
 */
export type PinnedServerView = PinnedServerCommon &
  (
    | (PinnedNoProcess & PinnedExit & { readonly state: 'stopped' })
    | ((PinnedProcess | PinnedNoProcess) & PinnedExit & { readonly state: 'starting' })
    | (PinnedProcess & PinnedExit & { readonly state: 'downloading' | 'loading' | 'ready' | 'sleeping' | 'stopping' })
    | (PinnedNoProcess & { readonly state: 'backoff' | 'crashloop' | 'errored'; readonly lastExit: Problem })
  )

/** A pinned server's figures in brief (its row shows them compactly; the active server's full figures are `generation`). */
export interface PinnedGeneration {
  /** A slot of it is processing. */
  readonly active: boolean
  /** Live generation rate while it generates; null otherwise. */
  readonly tokensPerSecond: number | null
  /** Its last finished request: generation and prompt speeds (embeddings log none). */
  readonly last: RequestTimings | null
}

/**
 * A start or switch that did not happen (the old server, if any, runs on): what to say, once. The problem's fix,
 * where one click helps, stores the binary's spelling of the rejected flags (`llama-tray profiles fix`); views
 * start the profile after it ("Use -lm none and start").
 */
export interface StartFailure {
  readonly profileId: string
  readonly problem: Problem
}

/** A switch decided or waiting: what it waits for, and the sentence views show beside "Switch now". */
export interface PendingSwitch {
  readonly profileId: string
  readonly fromProfileId: string
  /** Requests the running server is still answering. */
  readonly runningRequests: number
  /** Requests waiting for their profile's turn. */
  readonly heldRequests: number
  /** At most this many seconds before the switch begins (the drain limit bounds it). */
  readonly withinS: number
  /** About how many seconds until it begins, from the running requests' progress and rate; null when that is unknown. */
  readonly estimateS?: number | null
  /** When, as one sentence: "After 2 running requests, about 20 s." or "After 2 running requests (at most 60 s)." */
  readonly when?: string
  readonly sentence: string
}

/** A launch that ran out of GPU memory and runs now with a placement the fit chose for the free memory (the profile is unchanged). */
export interface PlacementRetryNotice {
  readonly profileId: string
  /** What ran out and what was changed, one sentence. */
  readonly sentence: string
  /** The arguments it runs with (no binary). */
  readonly args: readonly string[]
  /** The profile fields "Keep in profile" sets to keep this placement. */
  readonly settings: PlacementSettings
}

export type PlacementSettings = Readonly<Partial<Pick<ProfileSettingsDocument, 'nCpuMoe' | 'gpuLayers' | 'ctxSize'>>>

/** A launch in progress: when it began and how long this profile's loads usually take. */
export interface LoadProgress {
  readonly profileId: string | null
  /** Epoch ms of the launch. */
  readonly startedAt: number
  /** Median launch-to-ready time of this profile's last loads; null before its first. */
  readonly expectedMs: number | null
  readonly previousLoads: number
}
