import type { CommandChannels } from '../contract/commands'
import type { ModelPullProgress } from '../contract/models'
import { isDownloadError } from '../lib/download'
import { ModelsError } from '../models'
import { modelActions } from './model-actions'
import { failed } from '../lib/failed'

type ModelChannels = Pick<CommandChannels, 'models:pull' | 'models:recipes' | 'models:apply-recipe'>

export interface ModelCommandOptions {
  /** HF_ENDPOINT, HF_TOKEN and the cache folders (default: the process environment). */
  readonly env?: Readonly<Record<string, string | undefined>>
}

/** What a recipe needs from the rest of the core: the home, the llama-server to run it, the GPU's free VRAM. */
export interface RecipeDeps {
  readonly home: string
  readonly binary: () => Promise<string | null>
  readonly freeVramMiB: () => number | null
}

/** The dashboard's model pull (first run): one at a time, progress pushed, refusals as one sentence. The CLI runs the same actions. */
export function modelCommands(
  onProgress: (p: ModelPullProgress) => void,
  recipes: RecipeDeps,
  options: ModelCommandOptions = {},
): ModelChannels {
  const actions = modelActions({ home: recipes.home, ...(options.env ? { env: options.env } : {}) })
  let pulling = false
  return {
    'models:recipes': async () =>
      actions.recipes().map((r) => ({
        id: r.id,
        title: r.title,
        target: `${r.target.repo}:${r.target.quant}`,
        draft: `${r.draft.repo}:${r.draft.quant}`,
      })),
    'models:apply-recipe': async (recipeId) => {
      if (!actions.recipes().some((r) => r.id === recipeId))
        return failed('model', `no recipe "${recipeId}": choose one of the listed setups`)
      if (pulling) return failed('busy', 'a model is already being downloaded: wait for it to finish')
      const binary = await recipes.binary()
      if (binary === null)
        return failed('engine', 'no llama-server found on this computer: install llama.cpp first (step 1)', {
          fix: { label: 'Look again', run: { command: 'profiles:discover' }, cli: 'llama-tray engines install' },
        })
      pulling = true
      try {
        const free = recipes.freeVramMiB()
        const applied = await actions.applyRecipe(recipeId, {
          binary,
          ...(free !== null ? { freeVramMiB: free } : {}),
          onProgress: (repo, p) => onProgress({ repo, ...p }),
        })
        return { ok: true, value: { profileId: applied.profile.id, nCpuMoe: applied.fit.nCpuMoe, fits: applied.fit.fits } }
      } catch (err) {
        if (err instanceof ModelsError || isDownloadError(err)) return { ok: false, error: err.toProblem() }
        throw err
      } finally {
        pulling = false
      }
    },
    'models:pull': async (ref, file) => {
      if (pulling) return failed('busy', 'a model is already being downloaded: wait for it to finish')
      pulling = true
      try {
        const r = await actions.pull(ref, { file, onProgress: (repo, p) => onProgress({ repo, ...p }) })
        return { ok: true, value: { repo: r.repo, file: r.file, path: r.path, sizeBytes: r.sizeBytes, sha256: r.sha256, cached: r.cached } }
      } catch (err) {
        // A damaged download reads as its one sentence with the fix first; the hashes are the CLI's details.
        if (isDownloadError(err) && err.kind === 'digest-mismatch')
          return failed(
            'model',
            `${decodeURIComponent(err.url.split('/').pop() ?? 'The file')} from ${ref} does not match the sha256 the Hub lists for it, ` +
              `so it was deleted and nothing was kept: try again, and report it to the repo's owners if it repeats.`,
            { details: `expected sha256 ${err.expectedSha256 ?? '?'}\ngot sha256 ${err.actualSha256 ?? '?'}\n${err.url}` },
          )
        if (err instanceof ModelsError || isDownloadError(err)) return { ok: false, error: err.toProblem() }
        throw err
      } finally {
        pulling = false
      }
    },
  }
}
