/** Filled by the metrics issue; null until then. */
export interface GenerationSnapshot {
  readonly active: boolean
  readonly tokensPerSecond: number | null
}
