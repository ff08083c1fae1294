/** The one OpenAI-compatible endpoint clients use, in front of the supervised llama-server (app/endpoint/). */

/** Figures of one request, taken from what passed through the endpoint. */
export interface EndpointRequestFigures {
  /** Epoch ms when the response ended. */
  readonly time: number
  readonly profileId: string | null
  readonly method: string
  readonly path: string
  readonly status: number
  readonly stream: boolean
  /** Until the first byte of the server's answer, from the request's arrival at the endpoint (held time included). */
  readonly timeToFirstByteMs: number | null
  /** Until the first streamed token (first SSE event); null for an answer that was not streamed. */
  readonly timeToFirstTokenMs: number | null
  readonly durationMs: number
  /** Held while the server started, restarted or switched. */
  readonly heldMs: number
  /** From the answer's `timings` (what llama-server measured), when it had them. */
  readonly promptTokens: number | null
  readonly predictedTokens: number | null
  readonly predictedTokensPerSecond: number | null
  /** Prompt tokens from the server's cache (not in promptTokens), its prompt speed, and draft tokens (a draft model's). */
  readonly cachedTokens: number | null
  readonly promptTokensPerSecond: number | null
  readonly draftTokens: number | null
  readonly draftAccepted: number | null
  /** The error message of an answer with an error status, else null. */
  readonly error: string | null
  /**
   * The GPU's energy in J while the server worked on it (held time left out), where a GPU energy source exists: the
   * whole GPU's, so requests that overlap share it. Null without one (no NVIDIA GPU, asleep, or too short to sample).
   */
  readonly energyJ: number | null
}

export interface EndpointStatus {
  /** The base URL clients use (…/v1). */
  readonly url: string
  readonly host: string
  readonly port: number
  readonly listening: boolean
  /** Why it does not listen (the port's holder and a free port), else null. */
  readonly problem: string | null
  /** Requests waiting for the server now. */
  readonly held: number
  readonly lastRequest: EndpointRequestFigures | null
}
