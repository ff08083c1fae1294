import { discoverWithEngines } from '../engines/discover-with-engines'
import { parseModelRef, pullModel, type PullProgress, type PullResult } from '../models'
import { applyRecipe, type AppliedRecipe } from '../profiles/apply-recipe'
import { RECIPES, recipeNamed } from '../profiles/recipes'

export interface ModelActionDeps {
  readonly home: string
  /** HF_ENDPOINT, HF_TOKEN and the cache folders (default: the process environment). */
  readonly env?: Readonly<Record<string, string | undefined>>
}

export interface PullChoices {
  /** A file of the repo by name instead of the quant's. */
  readonly file?: string | null
  readonly signal?: AbortSignal
  /** The repo ("org/name") and how far its download is. */
  readonly onProgress?: (repo: string, p: PullProgress) => void
}

export interface RecipeChoices {
  /** The llama-server the profile runs; default: the first discovery lists (an engine Llama Tray installed comes first). */
  readonly binary?: string
  /** The VRAM to fit --n-cpu-moe to; default: the recipe's own GPU. */
  readonly freeVramMiB?: number
  readonly onProgress?: (repo: string, p: PullProgress) => void
}

/** No llama-server was given and none was found, so a recipe has nothing to run its profile with. */
export class NoServerBinaryError extends Error {
  constructor() {
    super('No llama-server was found on this computer: install llama.cpp first (llama-tray engines install), or name one with --binary.')
    this.name = 'NoServerBinaryError'
  }
}

/**
 * The model operations both the dashboard (model-commands.ts, over IPC) and the CLI (cli/commands/models.ts) run;
 * each throws ModelsError, a download error or NoServerBinaryError.
 */
export function modelActions(deps: ModelActionDeps) {
  const env = deps.env ? { env: deps.env } : {}
  return {
    /** The GGUF of `org/name[:quant]` (or the named file) into the Hugging Face cache, resumed and sha256-checked. */
    pull: (ref: string, choices: PullChoices = {}): Promise<PullResult> => {
      const { repo, quant } = parseModelRef(ref)
      return pullModel({
        repo,
        quant,
        file: choices.file ?? null,
        ...env,
        ...(choices.signal ? { signal: choices.signal } : {}),
        ...(choices.onProgress ? { onProgress: (p: PullProgress) => choices.onProgress?.(repo, p) } : {}),
      })
    },

    recipes: () => RECIPES,

    /** Pulls a recipe's model and draft and stores its profile, --n-cpu-moe fitted to the VRAM. */
    applyRecipe: async (recipeId: string, choices: RecipeChoices = {}): Promise<AppliedRecipe> => {
      const recipe = recipeNamed(recipeId)
      const binary = choices.binary ?? (await discoverWithEngines({ home: deps.home })).binaries[0]?.path
      if (!binary) throw new NoServerBinaryError()
      return applyRecipe({
        home: deps.home,
        recipe,
        binary,
        ...(choices.freeVramMiB !== undefined ? { freeVramMiB: choices.freeVramMiB } : {}),
        ...env,
        ...(choices.onProgress ? { onProgress: choices.onProgress } : {}),
      })
    },
  }
}
