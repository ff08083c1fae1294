/**
 * What llama-server is generating, live and per finished request
 * (filled by app/metrics/). Rates are tokens per second.
 */

/** What one slot is doing, from the last /slots poll (and the log where it says more). */
export interface SlotGeneration {
  readonly id: number
  readonly taskId: number | null
  readonly state: 'idle' | 'prompt' | 'generating'
  /** Live generation rate: Δn_decoded/Δt between two polls of the same task; null until two polls saw tokens. */
  readonly tokensPerSecond: number | null
  /** Tokens generated so far by the current task. */
  readonly decoded: number | null
  /** Tokens the task may still generate (n_remain), when known. */
  readonly remaining: number | null
  /** Prompt progress 0..1 while the prompt is processed, when the engine says. */
  readonly promptProgress: number | null
  /** Tokens in this slot's context (prompt + generated), when known. */
  readonly contextUsed: number | null
  /** This slot's context size (n_ctx per slot), when known. */
  readonly contextSize: number | null
}

/** One finished request, exactly as the server logged it. */
export interface RequestTimings {
  /** Epoch ms when the record was complete. */
  readonly time: number
  readonly slotId: number | null
  readonly taskId: number | null
  readonly promptTokens: number
  readonly promptMs: number
  readonly promptTokensPerSecond: number
  readonly predictedTokens: number
  readonly predictedMs: number
  readonly predictedTokensPerSecond: number
  /** Drafted tokens (speculative decoding); null when nothing was drafted. */
  readonly draftTokens: number | null
  readonly draftAccepted: number | null
  /** draftAccepted / draftTokens, as the server printed it. */
  readonly draftAcceptance: number | null
  /** The GPU's energy over the request in J (NVML's energy counter, or power integrated); null or absent where unmeasured. */
  readonly energyJ?: number | null
}

/** One point per second for charts. */
export interface GenerationSecond {
  /** Epoch ms at the start of the second. */
  readonly time: number
  /** Sum over busy slots; 0 when idle. */
  readonly tokensPerSecond: number
  readonly activeSlots: number
}

/** Rolling figures over a profile's recent requests (comparisons, warnings). */
export interface RollingGenerationFigures {
  readonly profileId: string
  /** Requests in the window. */
  readonly requests: number
  readonly medianTokensPerSecond: number | null
  readonly medianPromptTokensPerSecond: number | null
  /** Median prompt speed of the window's long prompts (LONG_PROMPT_TOKENS+; short ones are mostly overhead), and how many there were. */
  readonly medianLongPromptTokensPerSecond: number | null
  readonly longPrompts: number
  /** Σ accepted / Σ drafted over the window's speculative requests; null without any. */
  readonly draftAcceptance: number | null
  /** GPU energy per 1,000 generated tokens over the window's requests with a measured energy (J); null without any. */
  readonly joulesPer1000Tokens?: number | null
}

/**
 * How the /slots poll is going. `slow`: an answer is overdue (a server busy in
 * a long decode step; counted as busy, not dead). `unavailable`: /slots
 * disabled (501). `unauthorized`: the API key was refused.
 */
export type SlotsPollState = 'idle' | 'ok' | 'slow' | 'down' | 'unauthorized' | 'unavailable' | 'error' | 'stopped'

export interface GenerationSnapshot {
  /** A slot is processing (or the server is too busy to answer the poll). */
  readonly active: boolean
  /** Live generation rate, summed over busy slots; null when nothing is generating or no rate is known yet. */
  readonly tokensPerSecond: number | null
  readonly slots: readonly SlotGeneration[]
  /** The last finished request. */
  readonly last: RequestTimings | null
  /** The fullest slot's context use and size. */
  readonly contextUsed: number | null
  readonly contextSize: number | null
  readonly poll: { readonly state: SlotsPollState; readonly detail: string | null }
  readonly rolling: RollingGenerationFigures | null
  /** The threads llama-server generates with, from its log's system_info line; null until seen or where a fork prints none. */
  readonly threads?: number | null
}

/** The running server's bounded histories, oldest first: a query, not part of every snapshot. */
export interface GenerationHistory {
  readonly perSecond: readonly GenerationSecond[]
  readonly requests: readonly RequestTimings[]
}
