/**
 * Profile summaries for views (types only). A profile is everything needed to
 * launch one llama-server configuration; the renderer sees summaries and
 * names profiles by id, never by executable path (see commands.ts).
 */

import type { Warning } from './warnings'

export type ServerFork = 'mainline' | 'ik_llama' | 'buun' | 'unknown'

/** The flags a profile's own llama-server accepts, from its --help (engine detection, cached in <home>/engines.json). */
export interface BinaryFlags {
  readonly fork: ServerFork
  /** Every spelling its --help lists; empty when the help could not be read (then every flag is offered). */
  readonly flags: readonly string[]
}

export interface ProfileSummary {
  readonly id: string
  readonly name: string
  /** The llama-server binary ('' until the user picks one). */
  readonly binary: string
  readonly model: string
  readonly draftModel: string | null
  /** The engine detected for the binary, when it was checked. */
  readonly fork: ServerFork | null
  readonly notes: string
  readonly active: boolean
  /** Runs beside the active profile as its own llama-server (`profiles pin`). */
  readonly pinned: boolean
  readonly updatedAt: string
  /** What the save changed to fit the binary ("The flag --no-mmap was written as -lm none, …"), told once; absent when nothing. */
  readonly notices?: readonly string[]
  /** After a save: the advisor's warn- and error-level findings on what was stored, each with its fix; absent when none. */
  readonly findings?: readonly Warning[]
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

/** The typed launch settings of a profile (all optional: unset means the engine's default). */
export interface ProfileSettingsDocument {
  readonly gpuLayers?: string
  readonly nCpuMoe?: number
  readonly cpuMoe?: boolean
  readonly ctxSize?: number
  readonly parallel?: number
  readonly cacheTypeK?: string
  readonly cacheTypeV?: string
  readonly flashAttn?: string
  readonly loadMode?: string
  readonly noMmap?: boolean
  readonly mlock?: boolean
  readonly draftGpuLayers?: string
  readonly specType?: string
  readonly draftMax?: number
  readonly draftMin?: number
  readonly reasoning?: string
  readonly reasoningBudget?: number
  readonly temp?: number
  readonly topK?: number
  readonly topP?: number
  readonly minP?: number
  readonly presencePenalty?: number
  readonly host?: string
  readonly port?: number
  readonly apiKey?: string
  readonly apiKeyFile?: string
}

/** A whole profile as the editor shows it (the stored profile, as plain data). */
export interface ProfileDocument {
  readonly id: string
  readonly name: string
  readonly binary: string
  readonly model: string
  readonly draftModel?: string
  readonly settings: ProfileSettingsDocument
  readonly extraArgs: readonly string[]
  readonly env: Readonly<Record<string, string>>
  readonly notes: string
  readonly createdAt: string
  readonly updatedAt: string
  /** The flags its binary accepts (the editor offers only those, in its spelling); null or absent when not known. */
  readonly binaryFlags?: BinaryFlags | null
}

/**
 * What the editor may change. The llama-server binary is not here: it is
 * chosen in main's own file dialog (profiles:choose-file) or by import, so the
 * renderer never hands main a program to run.
 */
export interface ProfileEdit {
  readonly name?: string
  readonly model?: string
  readonly draftModel?: string | null
  readonly settings?: ProfileSettingsDocument
  readonly extraArgs?: readonly string[]
  readonly env?: Readonly<Record<string, string>>
  readonly notes?: string
}

export type ExportFormat = 'bash' | 'cmd' | 'powershell'
export type ProfileFileRole = 'binary' | 'model' | 'draftModel'

/** A llama-server binary found on disk. `id` is issued by main: the renderer picks by id, never by path. */
export interface DiscoveredBinary {
  readonly id: string
  readonly path: string
  readonly fork: ServerFork | null
  readonly version: string | null
  /** Where it was found: PATH, a common install folder, a binary chosen before. */
  readonly source: string
}

/** A GGUF model found on disk, with what its header says. */
export interface DiscoveredModel {
  readonly id: string
  readonly path: string
  readonly fileMiB: number
  readonly architecture: string | null
  /** e.g. Q4_K_M, IQ4_XS; null when the header does not say. */
  readonly quantisation: string | null
  readonly layers: number | null
  readonly experts: number | null
  readonly trainingContext: number | null
  /** A draft-sized model (small, same family), for speculative decoding. */
  readonly looksLikeDraft: boolean
  /** The ids of the models it is draft-sized for (same vocabulary, else same family): offered as their draft only. */
  readonly draftFor?: readonly string[]
  readonly source: string
  /** Why the header could not be read (the file is still listed); null when it was. */
  readonly problem: string | null
}

export interface Discovery {
  readonly binaries: readonly DiscoveredBinary[]
  readonly models: readonly DiscoveredModel[]
  /** Folders searched, for the "where did you look?" question. */
  readonly searched: readonly string[]
}
