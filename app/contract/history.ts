/** Usage history (app/history/, <home>/history.sqlite): every finished request and server session, kept across restarts. */

/** One finished request through the endpoint (or a bench run's request). */
export interface HistoryRequest {
  /** Epoch ms when the answer ended. */
  readonly time: number
  readonly profileId: string | null
  readonly profileName: string | null
  /** The llama-server fork (mainline, ik_llama.cpp, …) and the engine's version, when known. */
  readonly engine: string | null
  readonly engineVersion: string | null
  /** The model file's name (no folder). */
  readonly model: string | null
  readonly path: string
  readonly status: number
  readonly promptTokens: number | null
  readonly cachedTokens: number | null
  readonly generatedTokens: number | null
  readonly draftTokens: number | null
  readonly draftAccepted: number | null
  readonly promptPerSecond: number | null
  readonly generationPerSecond: number | null
  readonly ttftMs: number | null
  readonly durationMs: number
  /** GPU energy over the request, in joules, where the GPU reports it. */
  readonly energyJ: number | null
  /** The error's message for a failed request, else null. */
  readonly error: string | null
}

/** How a server session ended. */
export type HistorySessionEnd = 'stopped' | 'crashed' | 'failed' | 'replaced' | 'running'

/** One run of llama-server, from spawn to exit (or a bench run, kind "bench"). */
export interface HistorySession {
  /** Unique per session, chosen by the process that started it. */
  readonly key: string
  readonly kind: 'server' | 'bench'
  readonly profileId: string | null
  readonly profileName: string | null
  readonly engine: string | null
  readonly engineVersion: string | null
  readonly model: string | null
  /** The GPU driver's version at the start, when known. */
  readonly driverVersion: string | null
  /** A digest of the launch's arguments: a change marks a profile edit. */
  readonly launchDigest: string | null
  readonly startedAt: number
  readonly readyAt: number | null
  readonly stoppedAt: number | null
  readonly ended: HistorySessionEnd
  readonly loadMs: number | null
  /** Started with a safer placement after running out of GPU memory. */
  readonly placementRetry: boolean
  /** A bench run's generation speed (tok/s), else null. */
  readonly generationPerSecond: number | null
  readonly promptPerSecond: number | null
}

/** Requests of one day and profile: summed counts and median speeds (rolled-up days keep what they had). */
export interface HistoryDay {
  /** Local date, YYYY-MM-DD. */
  readonly day: string
  readonly profileId: string | null
  readonly profileName: string | null
  readonly requests: number
  readonly errors: number
  readonly promptTokens: number
  readonly cachedTokens: number
  readonly generatedTokens: number
  readonly draftTokens: number
  readonly draftAccepted: number
  /** Token-weighted mean speeds over the day (total tokens / total time), null when no request had one. */
  readonly promptPerSecond: number | null
  readonly generationPerSecond: number | null
  readonly durationMs: number
  readonly energyJ: number | null
}

/** Requests of one profile over the asked range. */
export type HistoryProfileTotal = Omit<HistoryDay, 'day'> & { readonly firstTime: number; readonly lastTime: number }

/** Something that changed between sessions of a profile, shown as a mark on the charts. */
export interface HistoryChange {
  readonly time: number
  readonly profileId: string | null
  readonly what: 'engine' | 'profile' | 'driver'
  /** Before and after, in words (versions, or "edited"). */
  readonly from: string | null
  readonly to: string | null
}

/** What the History view asks for: the days, the changes and the bench runs since a time. */
export interface HistoryQuery {
  readonly sinceMs?: number | null
  readonly profileId?: string | null
}

export interface HistoryOverview {
  readonly days: readonly HistoryDay[]
  readonly changes: readonly HistoryChange[]
  readonly benches: readonly HistorySession[]
  /** Today's generated and prompt tokens, all profiles (the popover's line). */
  readonly today: { readonly promptTokens: number; readonly generatedTokens: number; readonly requests: number }
}
