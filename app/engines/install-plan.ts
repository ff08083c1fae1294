import { join } from 'node:path'
import { chooseBackend, type BackendChoice, type EngineBackend } from './backends'
import { pickAssets, type PickedAssets } from './asset-picker'
import type { DriverCuda } from './driver-cuda'
import { EngineError } from './engine-error'
import { engineId, enginesDir, isSafeTag, readManifest, type EngineManifest } from './layout'
import type { ReleaseClient } from './release-client'
import type { Release } from './releases'

export interface PlanOptions {
  readonly home: string
  readonly client: Pick<ReleaseClient, 'release'>
  readonly backend: BackendChoice
  /** A release tag; default the latest release. */
  readonly tag?: string
  readonly platform?: NodeJS.Platform
  readonly arch?: string
  /** For `auto`: the NVIDIA driver's CUDA version (default: none, i.e. no NVIDIA GPU). */
  readonly driver?: () => Promise<DriverCuda | null>
}

/** What an install of this machine's engine would fetch: the release, the backend `auto` chose and why, the archives. */
export interface InstallPlan {
  readonly id: string
  readonly release: Release
  readonly backend: EngineBackend
  /** What the NVIDIA driver said (asked only for `auto`); null without one. */
  readonly driver: DriverCuda | null
  readonly picked: PickedAssets
  /** The engine folder, and its manifest when this engine is installed already. */
  readonly dir: string
  readonly existing: EngineManifest | null
}

/**
 * Chooses what to install without downloading it: the backend (`auto`: from
 * the driver's CUDA version), the release (the latest unless a tag is given)
 * and its archives for this OS and architecture. The install and the
 * dashboard's offer ("Install llama.cpp (CUDA 12, ~N MB)") share it.
 */
export async function planInstall(opts: PlanOptions): Promise<InstallPlan> {
  const platform = opts.platform ?? process.platform
  const arch = opts.arch ?? process.arch
  const driver = opts.backend === 'auto' ? await (opts.driver ?? (async () => null))() : null
  const backend = chooseBackend(opts.backend, driver?.cudaVersion ?? null, platform)
  const release = await opts.client.release(opts.tag)
  if (!isSafeTag(release.tag))
    throw new EngineError(`The release tag "${release.tag}" cannot name a folder: choose another release with --tag.`, 'bad-answer')
  const picked = pickAssets(release, backend, platform, arch)
  const id = engineId(release.tag, backend)
  const dir = join(enginesDir(opts.home), id)
  return { id, release, backend, driver, picked, dir, existing: await readManifest(dir) }
}
