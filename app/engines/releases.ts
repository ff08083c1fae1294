/** One file of a GitHub release, as the REST API describes it. */
export interface ReleaseAsset {
  readonly name: string
  readonly size: number
  readonly url: string
  /** Lowercase hex sha256 from the API's `digest` ("sha256:<hex>"), null when the API gives none. */
  readonly sha256: string | null
}

export interface Release {
  readonly tag: string
  readonly publishedAt: string | null
  readonly assets: readonly ReleaseAsset[]
}
