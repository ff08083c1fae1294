export type WarningLevel = 'info' | 'warn' | 'error'

/** A concrete change the UI can apply in one step. */
export interface WarningFix {
  readonly label: string
  /** Flags to remove from the profile, every spelling and occurrence, with their values. */
  readonly removeArgs: readonly string[]
  /** Arguments to add, as argv tokens (where the first removed flag was, else at the end). */
  readonly addArgs: readonly string[]
}

/** Where a warning comes from: the profile's arguments (lint), or what is happening now (live). */
export type WarningSource = 'lint' | 'live'

export interface Warning {
  /** Unique and stable: `<rule>[:<detail>]@<profileId>` (what warnings:apply-fix takes). */
  readonly id: string
  readonly level: WarningLevel
  readonly message: string
  readonly fix: WarningFix | null
  /** The rule that raised it (the id without detail and profile), e.g. "lint.mmap-with-cpu-experts", "live.vram-low". */
  readonly rule?: string
  readonly source?: WarningSource
  /** The profile it concerns (the one its fix changes); null when none does. */
  readonly profileId?: string | null
  /** Epoch ms when it was raised (live warnings stay raised until their signal has been clear for a while). */
  readonly since?: number
  /** Its fix is stored in the running profile, but the server still runs the old settings: true until a restart runs the new ones. */
  readonly appliesAfterRestart?: boolean
}
