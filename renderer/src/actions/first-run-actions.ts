import type { Result } from '../../../app/contract/commands'
import { MODEL_REF } from '../../../app/contract/models'
import { launchInEffect } from '../../../app/contract/server-state'
import { defaultPick } from '../lib/discovery-pick'
import { missingForFirstRun } from '../lib/first-run'
import { installEngine as installRelease, planEngineInstall } from './engine-actions'
import { applyRecipe, listRecipes, pullModel } from './model-actions'
import { createDiscoveredProfile, discoverOnDisk } from './profile-actions'
import { startServer } from './server-actions'
import { IDLE_STEP, useFirstRunStore } from '../stores/first-run-store'
import { useStatusStore } from '../stores/status-store'
import { problem, type Problem } from '../../../app/contract/problem'

// What the first-run view does, in one place. Each step is also a CLI
// command, which the view names beside it.

const set = useFirstRunStore.setState
const engaged = (): void => set({ engaged: true })

/** Discovery (binaries and models already on disk); once no engine is found, what an install would fetch. */
export async function lookForEngineAndModel(): Promise<void> {
  set({ looking: true, lookError: null })
  try {
    const r = await discoverOnDisk()
    if (!r.ok) return set({ lookError: r.error })
    set({ found: r.value })
    if (missingForFirstRun(r.value).engine && useFirstRunStore.getState().plan === null) await planInstall()
  } finally {
    set({ looking: false })
  }
}

async function planInstall(): Promise<void> {
  const r = await planEngineInstall('auto')
  set(r.ok ? { plan: r.value, planError: null } : { plan: null, planError: r.error })
}

/** Installs the release the offer named (backend auto); progress arrives as engines:progress. Then looks again, so the list shows it. */
export async function installEngine(): Promise<void> {
  engaged()
  const tag = useFirstRunStore.getState().plan?.tag ?? null
  set({ engine: { busy: true, progress: null, error: null, done: null } })
  const r = await installRelease('auto', tag)
  set((s) => ({ engine: { ...s.engine, busy: false, error: r.ok ? null : r.error, done: r.ok ? r.value : null } }))
  await lookForEngineAndModel()
}

/** The example the model field shows, and what a malformed entry is told. */
export const MODEL_EXAMPLE = 'ggml-org/Qwen3-0.6B-GGUF:Q4_K_M'

/** Pulls a model named as org/repo:quant from the Hugging Face Hub (progress as models:progress), then looks again. */
export async function getModel(ref: string): Promise<void> {
  engaged()
  const wanted = ref.trim()
  const notAName = `“${wanted}” is not a Hugging Face model name: write it as org/repo:quant, for example ${MODEL_EXAMPLE}.`
  if (!MODEL_REF.test(wanted)) return set({ model: { ...IDLE_STEP, error: problem('input', notAName) } })
  set({ model: { busy: true, progress: null, error: null, done: null } })
  const r = await pullModel(wanted)
  set((s) => ({ model: { ...s.model, busy: false, error: r.ok ? null : r.error, done: r.ok ? r.value : null } }))
  await lookForEngineAndModel()
}

/** The recipes to offer beside the model field (asked once). */
export async function loadRecipes(): Promise<void> {
  if (useFirstRunStore.getState().recipes.length === 0) set({ recipes: await listRecipes() })
}

/** Gets a recipe: both files pulled with progress, its profile stored (step 3 then starts that profile). */
export async function getRecipe(recipeId: string): Promise<void> {
  engaged()
  const title = useFirstRunStore.getState().recipes.find((r) => r.id === recipeId)?.title ?? recipeId
  set({ model: { busy: true, progress: null, error: null, done: null } })
  const r = await applyRecipe(recipeId)
  set((s) => ({ model: { ...s.model, busy: false, error: r.ok ? null : r.error }, recipe: r.ok ? { title, result: r.value } : s.recipe }))
  await lookForEngineAndModel()
}

/** The model (and draft) the user chose on Setup, by path: discovery ids are read again from a fresh discovery. */
export interface SetupChoice {
  readonly modelPath: string | null
  readonly draftPath: string | null
}

/**
 * Creates a profile from what was found (the model the user chose, else the engine just installed and the
 * model just pulled first) and starts it. Resolves true once the launch is
 * under way, false when it was refused (the reason is in the store).
 */
export async function createProfileAndStart(choice: SetupChoice = { modelPath: null, draftPath: null }): Promise<boolean> {
  engaged()
  set({ start: { busy: true, error: null } })
  const fail = (error: Problem): false => (set({ start: { busy: false, error } }), false)
  const found = await discoverOnDisk()
  if (!found.ok) return fail(found.error)
  set({ found: found.value })
  const { engine, model, recipe } = useFirstRunStore.getState()
  if (recipe !== null) {
    // The recipe stored its own profile (its flags and fitted --n-cpu-moe): start that one.
    const launched = await startUntilLaunched(recipe.result.profileId)
    if (!launched.ok) return fail(launched.error)
    set({ start: { busy: false, error: null } })
    return true
  }
  const pick = defaultPick(found.value)
  const binaryId = found.value.binaries.find((b) => b.path === engine.done?.path)?.id ?? pick.binaryId
  const byPath = (path: string | null | undefined): string | undefined =>
    path ? found.value.models.find((m) => m.path === path)?.id : undefined
  const modelId = byPath(choice.modelPath) ?? byPath(model.done?.path) ?? pick.modelId
  const draftId = byPath(choice.draftPath) ?? null
  if (!binaryId) return fail(problem('engine', 'No llama-server yet: install llama.cpp first.'))
  if (!modelId) return fail(problem('model', 'No model yet: get a model first.'))
  const created = await createDiscoveredProfile(binaryId, modelId, draftId, null)
  if (!created.ok) return fail(created.error)
  const launched = await startUntilLaunched(created.value.id)
  if (!launched.ok) return fail(launched.error)
  set({ start: { busy: false, error: null } })
  return true
}

/** server:start answers at ready or failure; the view moves on as soon as the launch is under way (the Running view shows the load). */
function startUntilLaunched(profileId: string): Promise<Result<null>> {
  return new Promise((resolve) => {
    const off = useStatusStore.subscribe((s) => {
      if (s.status?.profileId === profileId && launchInEffect(s.status.state)) done({ ok: true, value: null })
    })
    const done = (r: Result<null>): void => {
      off()
      resolve(r)
    }
    void startServer(profileId).then((r) => done(r.ok ? { ok: true, value: null } : r))
  })
}
