/** Pushed while a model pull runs (at most every 100 ms). */
export interface ModelPullProgress {
  readonly repo: string
  /** The part being downloaded (its path in the repo). */
  readonly file: string
  /** Bytes of the whole model so far, every part counted, and its size. */
  readonly bytes: number
  readonly total: number
  readonly rateBps: number
}

/** A model in the Hugging Face cache, verified against its LFS sha256. */
export interface ModelPullResult {
  readonly repo: string
  readonly file: string
  /** The snapshot path of the (first) GGUF: what a profile's -m takes. */
  readonly path: string
  readonly sizeBytes: number
  readonly sha256: string
  /** Already in the cache: nothing was downloaded. */
  readonly cached: boolean
}

/** A setup the first run can get in one click: a model and its draft from the Hub, and the profile that runs them. */
export interface ModelRecipeSummary {
  readonly id: string
  readonly title: string
  /** "org/name:quant" of the model and of the draft. */
  readonly target: string
  readonly draft: string
}

/** What models:apply-recipe stored. */
export interface AppliedRecipeResult {
  readonly profileId: string
  readonly nCpuMoe: number
  readonly fits: boolean | null
}

/** "org/name" or "org/name:quant", as `models:pull` and `llama-tray models pull` take it. */
export const MODEL_REF = /^[A-Za-z0-9][\w.-]*\/[\w.-]+(?::[\w.-]+)?$/
