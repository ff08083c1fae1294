import type { CommandChannels, LaunchSpec, Result } from '../contract/commands'
import type { EngineInstallProgress, EngineUpdateCheck } from '../contract/engines'
import { readDriverCuda, type DriverCuda } from '../engines/driver-cuda'
import { EngineError } from '../engines/engine-error'
import type { InstallProgress } from '../engines/install'
import { planInstall } from '../engines/install-plan'
import { ReleaseClient, releaseClientOptionsFromEnv, type ReleaseClientOptions } from '../engines/release-client'
import { updateNotice } from '../engines/update-check'
import { engineActions, engineSummary } from './engine-actions'
import type { GateOptions } from '../engines/safety-gate'
import type { BenchHost } from '../bench/bench-host'
import type { BenchProgress } from '../contract/bench'
import type { AppSettings } from '../contract/settings'
import { failed } from '../lib/failed'

type EngineChannels = Pick<
  CommandChannels,
  | 'engines:install'
  | 'engines:plan'
  | 'engines:list'
  | 'engines:remove'
  | 'engines:check-update'
  | 'engines:update-notice'
  | 'engines:update'
  | 'engines:rollback'
>

export interface EngineCommandOptions {
  /** Where releases come from (default: GITHUB_API_URL / GITHUB_TOKEN from the environment). */
  readonly releases?: ReleaseClientOptions
  /** The NVIDIA driver's CUDA version for `auto` (default: nvidia-smi). */
  readonly driver?: () => Promise<DriverCuda | null>
  /** The safety gate's bench (default: the profile's own bench through the core, 2 rounds of 2 runs × 64 tokens); tests script it. */
  readonly gate?: GateOptions
}

/** What the engine commands use of the core. */
export interface EngineCommandHost {
  readonly home: string
  readonly bench: BenchHost
  /** The launch in effect (a process alive or a restart pending), else null. */
  runningSpec(): LaunchSpec | null
  settings(): Pick<AppSettings, 'engineUpdateCheck'>
  onProgress(p: EngineInstallProgress): void
  onBenchProgress(p: BenchProgress): void
  /** A profile's binary changed (update, rollback): views reload the profiles. */
  profilesChanged(): Promise<void>
}

async function asResult<T>(job: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await job() }
  } catch (err) {
    if (err instanceof EngineError) return { ok: false, error: err.toProblem() }
    throw err
  }
}

/**
 * The dashboard's engine commands (first run, settings): one install at a
 * time, progress pushed; an engine the running server uses is never removed
 * under it. The CLI runs the same actions (engine-actions.ts).
 */
export function engineCommands(host: EngineCommandHost, options: EngineCommandOptions = {}): EngineChannels {
  const { home } = host
  const actions = engineActions({
    home,
    runningSpec: () => host.runningSpec(),
    ...(options.releases ? { releases: options.releases } : {}),
    ...(options.driver ? { driver: options.driver } : {}),
  })
  const onProgress = (p: EngineInstallProgress): void => host.onProgress(p)
  let installing = false
  // One notice check at a time: the dashboard may ask twice at once (a section mounted twice), and
  // both would ask GitHub (60 unauthenticated requests an hour) and write the same state file.
  let notice: Promise<EngineUpdateCheck | null> | null = null
  const client = (): ReleaseClient => new ReleaseClient(options.releases ?? releaseClientOptionsFromEnv())
  return {
    'engines:install': async ({ backend, tag }) => {
      if (installing) return failed('busy', 'an engine is already being installed: wait for it to finish')
      installing = true
      try {
        const push = (p: InstallProgress): void =>
          onProgress({ phase: p.phase, asset: p.asset ?? null, bytes: p.bytes ?? null, total: p.total ?? null, rateBps: p.rateBps ?? null })
        return await asResult(async () => {
          const e = await actions.install({ backend, tag: tag ?? undefined }, push)
          const { id, tag: built, backend: kind, path, version, alreadyInstalled, notice, noticeDetail } = e
          return { id, tag: built, backend: kind, path, version, alreadyInstalled, notice, noticeDetail }
        })
      } finally {
        installing = false
      }
    },
    'engines:plan': ({ backend, tag }) =>
      asResult(async () => {
        const plan = await planInstall({ home, client: client(), backend, tag: tag ?? undefined, driver: options.driver ?? readDriverCuda })
        const assets = [plan.picked.engine.asset, ...(plan.picked.cudart ? [plan.picked.cudart] : [])].map((a) => ({
          name: a.name,
          sizeBytes: a.size,
        }))
        return {
          id: plan.id,
          tag: plan.release.tag,
          backend: plan.backend,
          gpuName: plan.driver?.gpuName ?? null,
          driverCuda: plan.driver?.cudaVersion ?? null,
          assets,
          downloadBytes: assets.reduce((sum, a) => sum + a.sizeBytes, 0),
          installed: plan.existing !== null,
        }
      }),
    'engines:list': () => asResult(() => actions.list()),
    'engines:remove': (engineId, force) => asResult(async () => engineSummary(await actions.remove(engineId, force))),
    'engines:check-update': () => asResult(() => actions.checkUpdate()),
    'engines:update-notice': () => {
      notice ??= updateNotice(home, host.settings(), client())
        .catch(() => null)
        .finally(() => {
          notice = null
        })
      return notice
    },
    'engines:update': async (profileId) => {
      if (installing) return failed('busy', 'an engine is already being installed: wait for it to finish')
      installing = true
      try {
        const push = (p: InstallProgress): void =>
          onProgress({ phase: p.phase, asset: p.asset ?? null, bytes: p.bytes ?? null, total: p.total ?? null, rateBps: p.rateBps ?? null })
        const result = await asResult(async () => {
          const r = await actions.update(profileId, {
            bench: { core: host.bench, home, onProgress: (p) => host.onBenchProgress(p) },
            onProgress: push,
            gate: options.gate ?? { runs: 2, tokens: 64, rounds: 2 },
          })
          return {
            profileId: r.profileId,
            profileName: r.profileName,
            from: r.from,
            to: r.to,
            engineId: r.engine.id,
            adopted: r.adopted,
            summary: r.summary,
          }
        })
        if (result.ok && result.value.adopted) await host.profilesChanged()
        return result
      } finally {
        installing = false
      }
    },
    'engines:rollback': async (profileId) => {
      const result = await asResult(async () => {
        const r = await actions.rollback(profileId)
        return { profileId: r.profileId, binary: r.binary }
      })
      if (result.ok) await host.profilesChanged()
      return result
    },
  }
}
