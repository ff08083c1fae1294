/**
 * Profile summaries for views (types only). A profile is everything needed to
 * launch one llama-server configuration; the renderer sees summaries and
 * names profiles by id, never by executable path (see commands.ts).
 */

export type EngineKind = 'mainline' | 'ik_llama' | 'buun' | 'unknown'

export interface ProfileSummary {
  readonly id: string
  readonly name: string
  /** The llama-server binary ('' until the user picks one). */
  readonly binary: string
  readonly model: string
  readonly draftModel: string | null
  /** The engine detected for the binary, when it was checked. */
  readonly engine: EngineKind | null
  readonly notes: string
  readonly active: boolean
  readonly updatedAt: string
}

export type FlagProblemKind = 'rejected' | 'bad-value' | 'ineffective'

/** One flag this binary would reject (or silently ignore), with the known fix. */
export interface FlagProblemSummary {
  readonly flag: string
  readonly kind: FlagProblemKind
  readonly message: string
  /** The replacement arguments, or null when there is no equivalent on this engine. */
  readonly replacement: readonly string[] | null
}

/** How the profiles file was found when it was opened. */
export type ProfileStoreHealth = 'ok' | 'missing' | 'recovered-from-backup' | 'quarantined' | 'read-only'

export interface ProfileStoreSummary {
  readonly health: ProfileStoreHealth
  /** Human-readable notes about recovery (quarantined file names, newer schema version). */
  readonly messages: readonly string[]
  readonly activeProfileId: string | null
  readonly profiles: readonly ProfileSummary[]
}
