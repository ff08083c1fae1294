import type { ServerStatus } from '../contract/server-state'
import type { ProfileList } from './model-routing'
import type { SwitchOutcome } from './switch-policy'

/** What the endpoint needs of the core: the supervisor's state, the profiles, and the core's own switch. */
export interface EndpointBackend {
  status(): ServerStatus
  onState(listener: (status: ServerStatus) => void): () => void
  profiles(): Promise<ProfileList>
  /** The core's profile switch (server:start), the same one the tray and the dashboard use. */
  switchTo(profileId: string): Promise<SwitchOutcome>
  /** The key the running server wants (--api-key or --api-key-file of its profile), else null. */
  upstreamApiKey(): Promise<string | null>
  readonly settings: () => EndpointSettings
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
