import { create } from 'zustand'
import type { EngineInstallPlan, EngineInstallProgress, EngineInstallResult } from '../../../app/contract/engines'
import type { AppliedRecipeResult, ModelPullProgress, ModelPullResult, ModelRecipeSummary } from '../../../app/contract/models'
import type { Discovery } from '../../../app/contract/profile'
import type { Problem } from '../../../app/contract/problem'

/** One step of the first run (install, pull): running, its last progress, its failure, its result. */
export interface StepState<R, P> {
  readonly busy: boolean
  readonly progress: P | null
  readonly error: Problem | null
  readonly done: R | null
}

export const IDLE_STEP = { busy: false, progress: null, error: null, done: null } as const

interface FirstRunState {
  /** What discovery found last; null before the first look. */
  readonly found: Discovery | null
  readonly looking: boolean
  readonly lookError: Problem | null
  /** What the engine install would fetch (backend, GPU, size), asked once no engine is found. */
  readonly plan: EngineInstallPlan | null
  readonly planError: Problem | null
  readonly engine: StepState<EngineInstallResult, EngineInstallProgress>
  readonly model: StepState<ModelPullResult, ModelPullProgress>
  /** The one-click setups offered beside the model field, and the one applied (its profile is what step 3 starts). */
  readonly recipes: readonly ModelRecipeSummary[]
  readonly recipe: { readonly title: string; readonly result: AppliedRecipeResult } | null
  readonly start: { readonly busy: boolean; readonly error: Problem | null }
  /** The user acted in the view: it stays open when a profile appears. */
  readonly engaged: boolean
}

/**
 * The first-run flow's state, kept outside the view so that an install keeps
 * its progress while the user looks at another tab.
 */
export const useFirstRunStore = create<FirstRunState>()(() => ({
  found: null,
  looking: false,
  lookError: null,
  plan: null,
  planError: null,
  engine: IDLE_STEP,
  model: IDLE_STEP,
  recipes: [],
  recipe: null,
  start: { busy: false, error: null },
  engaged: false,
}))

/** engines:progress, pushed by main while an install runs (from here or from elsewhere). */
export function receiveEngineProgress(progress: EngineInstallProgress): void {
  useFirstRunStore.setState((s) => ({ engine: { ...s.engine, progress } }))
}

/** models:progress, pushed by main while a pull runs. */
export function receiveModelProgress(progress: ModelPullProgress): void {
  useFirstRunStore.setState((s) => ({ model: { ...s.model, progress } }))
}
