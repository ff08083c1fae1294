/** Where the machine draws power from now. */
export type PowerSourceKind = 'ac' | 'battery' | 'unknown'

/** The machine's power source as the snapshot carries it; each figure is null where the platform does not say. */
export interface PowerStatus {
  readonly source: PowerSourceKind
  /** The battery's charge, 0–100; null without a battery or when unknown. */
  readonly batteryPercent: number | null
  readonly charging: boolean | null
  /** Windows battery saver (SystemStatusFlag); on Windows 11 24H2 Energy Saver does not set it. Null where unknown. */
  readonly saver: boolean | null
}

export const UNKNOWN_POWER: PowerStatus = { source: 'unknown', batteryPercent: null, charging: null, saver: null }
