import type { LaunchSpec } from '../contract/commands'
import type { BackendChoice } from '../contract/engines'
import type { BenchDeps } from '../bench/session'
import { readDriverCuda, type DriverCuda } from '../engines/driver-cuda'
import { discoverElsewhere } from '../engines/elsewhere'
import { EngineError } from '../engines/engine-error'
import { installEngine, type InstallProgress } from '../engines/install'
import { isInside, listInstalled, type InstalledEngine } from '../engines/installed'
import { ReleaseClient, releaseClientOptionsFromEnv, type ReleaseClientOptions } from '../engines/release-client'
import { removeEngine } from '../engines/remove'
import type { GateOptions } from '../engines/safety-gate'
import { checkForUpdate } from '../engines/update-check'
import { rollbackProfileEngine, updateProfileEngine, type UpdateReport } from '../engines/update'

export interface EngineActionDeps {
  readonly home: string
  /** Where releases come from (default: GITHUB_API_URL / GITHUB_TOKEN from the environment). */
  readonly releases?: ReleaseClientOptions
  /** The NVIDIA driver's CUDA version for `auto` (default: nvidia-smi). */
  readonly driver?: () => Promise<DriverCuda | null>
  /** The launch in effect (a process alive or a restart pending); an engine it runs is not removed under it. None by default. */
  readonly runningSpec?: () => LaunchSpec | null
}

/** An installed engine as lists show it (the contract's InstalledEngineSummary). */
export const engineSummary = (e: InstalledEngine) => ({
  id: e.id,
  tag: e.tag,
  backend: e.backend,
  path: e.path,
  version: e.version,
  sizeBytes: e.sizeBytes,
  usedBy: e.usedBy,
})

export interface EngineUpdateChoices {
  /** The bench that decides (the core it starts servers on, a cancel signal, its progress). */
  readonly bench: BenchDeps
  readonly gate: GateOptions
  readonly backend?: BackendChoice
  readonly tag?: string
  readonly onProgress?: (p: InstallProgress) => void
}

/**
 * The engine operations both the dashboard (engine-commands.ts, over IPC) and the CLI (cli/commands/engines.ts) run.
 * Each throws EngineError, whose kind the CLI turns into its exit code and the channels into a Result.
 */
export function engineActions(deps: EngineActionDeps) {
  const { home } = deps
  const client = (): ReleaseClient => new ReleaseClient(deps.releases ?? releaseClientOptionsFromEnv())
  const driver = deps.driver ?? readDriverCuda
  return {
    /** Downloads, checks and installs llama.cpp's release for this OS and GPU (see installEngine). */
    install: (choice: { readonly backend: BackendChoice; readonly tag?: string }, onProgress?: (p: InstallProgress) => void) =>
      installEngine({ home, client: client(), backend: choice.backend, tag: choice.tag, driver, onProgress }),

    /** Engines in <home>/engines and llama-server binaries found elsewhere. */
    list: async () => ({ installed: (await listInstalled(home)).map(engineSummary), elsewhere: await discoverElsewhere(home) }),

    /** Removes an installed engine: refused while the server runs it, or while a profile uses it unless forced. */
    remove: async (engineId: string, force: boolean): Promise<InstalledEngine> => {
      const spec = deps.runningSpec?.() ?? null
      const target = (await listInstalled(home)).find((e) => e.id === engineId)
      if (target && spec && isInside(target.dir, spec.exe))
        throw new EngineError(`${engineId} runs the server now: stop it first, then remove the engine.`, 'in-use')
      return removeEngine(home, engineId, { force })
    },

    /** Whether a newer llama.cpp release is out (downloads nothing). */
    checkUpdate: () => checkForUpdate(home, client()),

    /** The newest release beside the profile's engine, benched against it; adopted only when not slower. */
    update: (profileRef: string, choices: EngineUpdateChoices): Promise<UpdateReport> =>
      updateProfileEngine(choices.bench, profileRef, {
        client: client(),
        driver,
        backend: choices.backend,
        tag: choices.tag,
        onProgress: choices.onProgress,
        gate: choices.gate,
      }),

    /** Back to the engine the profile had before its last update. */
    rollback: (profileRef: string) => rollbackProfileEngine(home, profileRef),
  }
}

export type EngineActions = ReturnType<typeof engineActions>
