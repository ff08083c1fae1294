import type { ServerStatus } from '../contract/server-state'
import type { SwitchControl } from './control-route'
import type { ProfileList } from './model-routing'
import { problem, type Problem } from '../contract/problem'

/** What the endpoint needs of the core: the supervisor's state, the profiles, and the core's own switch. */
export interface EndpointBackend {
  status(): ServerStatus
  onState(listener: (status: ServerStatus) => void): () => void
  profiles(): Promise<ProfileList>
  /**
   * Waits for the request's turn on a ready server of `profileId`, switching to it when the core's
   * scheduler decides (the same scheduler the tray and the dashboard use). Rejects with an
   * AdmissionError, or with the signal's reason when it is aborted.
   */
  acquire(profileId: string, signal: AbortSignal): Promise<Lease>
  /** The profile a decided switch goes to, else null: requests that name no profile follow it. */
  switchingTo(): string | null
  /** The key the running server wants (--api-key or --api-key-file of its profile), else null. */
  upstreamApiKey(): Promise<string | null>
  /** The server of a pinned profile, which answers beside the active one without a switch; null when `profileId` is not pinned. */
  pinned(profileId: string): PinnedBackend | null
  readonly settings: () => EndpointSettings
  /** The GPU's energy in J between two epoch ms (the core's energy meter); absent or null where none is measured. */
  energyJ?(fromMs: number, toMs: number): number | null
  /** The core's switch for `llama-tray profiles use` (control-route.ts); absent where the endpoint has no core behind it. */
  readonly control?: SwitchControl
}

/** A pinned profile's own server: requests for it go straight to it, never through the switch scheduler. */
export interface PinnedBackend {
  status(): ServerStatus
  onState(listener: (status: ServerStatus) => void): () => void
  /** Why it was not started (the profile, its engine or its flags), one sentence; null when it was. */
  refusal(): string | null
  /** The key that server wants (its profile's --api-key or --api-key-file), else null. */
  upstreamApiKey(): Promise<string | null>
}

export interface EndpointSettings {
  readonly switchOnRequest: boolean
  readonly heldRequestsMax: number
  readonly heldRequestWaitS: number
  /** Web origins (https://app.example) whose pages may call the endpoint; none by default. */
  readonly endpointAllowedOrigins: readonly string[]
  /** Host names clients may use besides this machine's own names and addresses (a DNS-rebinding guard). */
  readonly endpointAllowedHosts: readonly string[]
  /** The largest request body the endpoint reads. */
  readonly endpointMaxBodyMiB: number
}

/** A request's turn on the server: release it when the request ends. */
export interface Lease {
  /** Aborted when a switch cuts the request (past the drain limit, or "Switch now"); the reason is an AdmissionError. */
  readonly signal: AbortSignal
  release(): void
}

/** switch_withdrawn: a user's waiting click, withdrawn by their own later choice of the running profile (never a client's). */
export type AdmissionCode = 'profile_refused' | 'profile_failed' | 'switch_cut' | 'switch_replaced' | 'switch_withdrawn' | 'shutting_down'

/** Why a request was not served, or was cut: one sentence for the client, and a code. */
export class AdmissionError extends Error {
  constructor(
    message: string,
    readonly code: AdmissionCode,
    /** A failed start behind 'profile_failed': what a user's click shows instead of the request-shaped sentence. */
    readonly startProblem: Problem | null = null,
  ) {
    super(message)
    this.name = 'AdmissionError'
  }

  /** What views and the CLI show for it: the start's own problem where there is one. */
  toProblem(): Problem {
    return this.startProblem ?? problem('server', this.message)
  }
}
