export type WarningLevel = 'info' | 'warn' | 'error'

/** A concrete change the UI can apply in one step. */
export interface WarningFix {
  readonly label: string
  /** Flags to remove from the profile, every spelling and occurrence, with their values. */
  readonly removeArgs: readonly string[]
  /** Arguments to add, as argv tokens (where the first removed flag was, else at the end). */
  readonly addArgs: readonly string[]
  /** What it costs where measured rates on this machine say it ("about 3 tok/s slower (estimate)"); absent when unknown. */
  readonly cost?: string
}

/** Where a warning comes from: the profile's arguments (lint), or what is happening now (live). */
export type WarningSource = 'lint' | 'live'

/**
 * What a warning says, in two parts the advisor writes apart: views show the headline and keep the reason one click away
 * ("Why", a tooltip); places with room for one line only join them with `warningText`.
 */
export interface WarningWords {
  /** One sentence: what is wrong and what it costs ("Free VRAM on GPU 0 is 740 MiB, under the 1536 MiB headroom."). */
  readonly headline: string
  /** The why behind it, as measured (hardware, sources, numbers), and what to change; '' when the headline says it all. */
  readonly reason: string
}

export interface Warning extends WarningWords {
  /** Unique and stable: `<rule>[:<detail>]@<profileId>` (what warnings:apply-fix takes). */
  readonly id: string
  readonly level: WarningLevel
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

/** A warning as one line of text (the CLI, the tray menu, notifications, the diagnostics): its headline, then its reason. */
export function warningText(words: WarningWords): string {
  return words.reason === '' ? words.headline : `${words.headline} ${words.reason}`
}
