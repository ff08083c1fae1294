export type WarningLevel = 'info' | 'warn' | 'error'

/** A concrete change the UI can apply in one step. */
export interface WarningFix {
  readonly label: string
  /** Arguments to remove from the profile (flag names). */
  readonly removeArgs: readonly string[]
  /** Arguments to add, as argv tokens. */
  readonly addArgs: readonly string[]
}

export interface Warning {
  readonly id: string
  readonly level: WarningLevel
  readonly message: string
  readonly fix: WarningFix | null
}
