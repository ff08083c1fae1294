import { randomBytes } from 'node:crypto'
import { mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { DownloadProgress } from '../lib/download'
import { detectFork, ForkDetectError, forkFromOutput, runForOutput } from '../profiles/fork-detect'
import { backendOrder, type EngineBackend } from './backends'
import { checkEngine, checkFailedError, failureDetails, fallbackSentence, type FailedBuild } from './check-engine'
import { GpuCheckFailedError, noneRanError } from './check-engine'
import { downloadAsset } from './download-asset'
import type { DriverCuda } from './driver-cuda'
import { EngineError } from './engine-error'
import { hashFolder } from './file-hashes'
import type { GpuCheck } from './gpu-check'
import { planInstall, type InstallPlan, type PlanOptions } from './install-plan'
import { DOWNLOADS_DIR, ENGINE_MANIFEST, engineManifestStore, enginesDir, readManifest, serverExeName, type EngineManifest } from './layout'
import type { ReleaseAsset } from './releases'
import { DamagedArchiveError, extractArchive, UnsafeArchiveError } from './safe-extract'
import type { InstalledEngine } from './installed'

export type InstallPhase = 'release' | 'download' | 'extract' | 'verify' | 'check' | 'done'

export interface InstallProgress {
  readonly phase: InstallPhase
  /** The asset being downloaded or extracted. */
  readonly asset?: string
  readonly bytes?: number
  readonly total?: number | null
  readonly rateBps?: number
}

export interface InstallOptions extends PlanOptions {
  /** Confirms the extracted binary runs and answers its version (default: the engine detection's --version and --help). */
  readonly verify?: (binary: string) => Promise<{ readonly version: string | null }>
  /**
   * The GPU check after extraction (default: runGpuCheck on the shipped tiny model; its verdict is
   * cached per binary and driver). `false` skips it, for tests of the other steps only.
   */
  readonly gpuCheck?: GpuCheck | false
  readonly signal?: AbortSignal
  readonly onProgress?: (p: InstallProgress) => void
}

/** What an install gives: the installed engine's identity and binary, and whether anything was downloaded. */
export type InstalledEngineInfo = Pick<InstalledEngine, 'id' | 'tag' | 'backend' | 'dir' | 'path' | 'version'> & {
  /** True when this engine was installed before and nothing was downloaded. */
  readonly alreadyInstalled: boolean
  /** For `auto`, when a better build failed the GPU check: one sentence saying which and why, and the one installed. */
  readonly notice: string | null
  /** The failed builds' log lines behind the notice. */
  readonly noticeDetail: string | null
}

/** Runs the binary with --version and --help through the engine detection's parser; refuses one that does not run. */
export async function verifyRuns(binary: string): Promise<{ version: string | null }> {
  let versionText: string
  let help: string
  try {
    versionText = await runForOutput(binary, ['--version'])
    help = await runForOutput(binary, ['--help'])
  } catch (err) {
    throw new EngineError(
      `The downloaded llama-server does not start on this machine (${err instanceof ForkDetectError ? err.message : String(err)}): ` +
        `choose another --backend, or update the GPU driver.`,
      'does-not-run',
    )
  }
  const info = forkFromOutput(binary, help, versionText)
  if (info.version === null && info.flags.size === 0) {
    const first = (versionText.trim() || help.trim()).split('\n')[0] ?? ''
    throw new EngineError(
      `The downloaded llama-server does not run on this machine (${first || 'it printed nothing'}): choose another --backend, or ` +
        `update the GPU driver.`,
      'does-not-run',
      null,
      versionText,
    )
  }
  return { version: info.version }
}

const isNoSpace = (err: unknown): boolean => (err as NodeJS.ErrnoException | null)?.code === 'ENOSPC'

/**
 * Installs a llama.cpp release into <home>/engines/<tag>-<backend>/: picks the
 * asset for this OS, architecture and GPU, downloads it (and CUDA's cudart)
 * with resume and the sha256 check, extracts it into a temporary folder in
 * engines/, checks that the binary runs, writes the manifest, then renames
 * the folder into place. On any failure the temporary folder is removed, so
 * a half-installed engine never exists.
 */
export async function installEngine(opts: InstallOptions): Promise<InstalledEngineInfo> {
  const platform = opts.platform ?? process.platform
  ;(opts.onProgress ?? (() => {}))({ phase: 'release' })
  // auto chooses by the driver; a GPU build's check verdict is cached against the driver's version.
  const needsDriver = opts.backend === 'auto' || (opts.backend !== 'cpu' && opts.gpuCheck !== false)
  const driver = needsDriver ? await (opts.driver ?? (async () => null))() : null
  const order: EngineBackend[] = opts.backend === 'auto' ? backendOrder(driver?.cudaVersion ?? null, platform) : [opts.backend]
  // Every build tried comes from the same release: ask GitHub once.
  const releases = new Map<string | undefined, ReturnType<PlanOptions['client']['release']>>()
  const client: PlanOptions['client'] = {
    release: (tag) => {
      const asked = releases.get(tag) ?? opts.client.release(tag)
      releases.set(tag, asked)
      return asked
    },
  }
  const failed: FailedBuild[] = []
  for (const backend of order) {
    let plan: InstallPlan
    try {
      plan = await planInstall({ ...opts, client, backend, tag: failed[0]?.tag ?? opts.tag })
    } catch (err) {
      // After a failed check, a fallback the release has no build of is skipped.
      if (failed.length > 0 && err instanceof EngineError && err.kind === 'no-asset') continue
      throw err
    }
    releases.set(plan.release.tag, Promise.resolve(plan.release))
    try {
      const engine = await installPlanned(opts, plan, driver)
      return { ...engine, notice: failed.length > 0 ? fallbackSentence(failed, backend) : null, noticeDetail: failureDetails(failed) }
    } catch (err) {
      if (!(err instanceof GpuCheckFailedError)) throw err
      if (opts.backend !== 'auto') throw checkFailedError(err.failed)
      failed.push(err.failed)
    }
  }
  throw noneRanError(failed)
}

/** Installs one planned build: download, extract, the runs check, the GPU check, the manifest, the rename into place. */
type PlannedInstall = Omit<InstalledEngineInfo, 'notice' | 'noticeDetail'>

async function installPlanned(opts: InstallOptions, plan: InstallPlan, driver: DriverCuda | null): Promise<PlannedInstall> {
  const platform = opts.platform ?? process.platform
  const progress = opts.onProgress ?? (() => {})
  const { id, release, backend, picked, dir: finalDir, existing } = plan
  const root = enginesDir(opts.home)
  const exe = serverExeName(platform)
  if (existing)
    return {
      id,
      tag: existing.tag,
      backend: existing.backend,
      dir: finalDir,
      path: join(finalDir, existing.binary),
      version: existing.engineVersion,
      alreadyInstalled: true,
    }

  const assets: ReleaseAsset[] = [picked.engine.asset, ...(picked.cudart ? [picked.cudart] : [])]
  const downloads = join(root, DOWNLOADS_DIR)
  await mkdir(downloads, { recursive: true })
  const work = join(root, `.installing-${id}-${randomBytes(4).toString('hex')}`)
  try {
    const files: string[] = []
    for (const asset of assets) {
      const dest = join(downloads, asset.name)
      await downloadAsset(asset, dest, {
        signal: opts.signal,
        onProgress: (p: DownloadProgress) =>
          progress({ phase: 'download', asset: asset.name, bytes: p.bytes, total: p.total, rateBps: p.rateBps }),
      })
      files.push(dest)
    }
    await mkdir(work)
    const engineDir = await extractInto(files[0] as string, join(work, 'engine'), exe, progress, assets[0]?.name ?? '')
    if (files[1]) {
      // cudart's DLLs (or .so files) go beside llama-server, where the loader finds them.
      const rt = await extractInto(files[1], join(work, 'cudart'), null, progress, assets[1]?.name ?? '')
      for (const name of await readdir(rt))
        await rename(join(rt, name), join(engineDir, name)).catch(async (err: NodeJS.ErrnoException) => {
          if (err.code !== 'EEXIST' && err.code !== 'ENOTEMPTY') throw err // a file both archives carry: the engine's copy stays
        })
    }
    progress({ phase: 'verify' })
    const binary = join(engineDir, exe)
    const { version } = await (opts.verify ?? verifyRuns)(binary)
    const fileHashes = await hashFolder(engineDir, [ENGINE_MANIFEST])
    if (opts.gpuCheck !== false) {
      progress({ phase: 'check' })
      const binarySha256 = fileHashes[exe] ?? ''
      await checkEngine({
        home: opts.home,
        tag: release.tag,
        backend,
        binary,
        binarySha256,
        driverVersion: driver?.driverVersion ?? null,
        ...(opts.gpuCheck ? { check: opts.gpuCheck } : {}),
        ...(opts.signal ? { signal: opts.signal } : {}),
      })
    }
    const manifest: EngineManifest = {
      version: 1,
      id,
      tag: release.tag,
      backend,
      publishedAt: release.publishedAt,
      binary: exe,
      engineVersion: version,
      assets: assets.map((a) => ({ name: a.name, size: a.size, sha256: a.sha256 ?? '' })),
      installedAt: new Date().toISOString(),
      files: fileHashes,
    }
    await engineManifestStore(engineDir).update(() => manifest)
    try {
      await rename(engineDir, finalDir)
    } catch (err) {
      const raced = await readManifest(finalDir)
      if (!raced) throw err
      // Another install of the same engine finished first: keep it.
    }
    if (opts.verify === undefined) await detectFork(opts.home, join(finalDir, exe)).catch(() => null) // warm the detection cache
    progress({ phase: 'done' })
    return { id, tag: release.tag, backend, dir: finalDir, path: join(finalDir, exe), version, alreadyInstalled: false }
  } catch (err) {
    if (err instanceof UnsafeArchiveError) {
      const refused = `llama.cpp ${release.tag}'s archive ${err.archive} was refused: its entry ${JSON.stringify(err.entry)} ${err.why}`
      const fix = 'nothing was installed (report it to the mirror or choose another --tag).'
      throw new EngineError(`${refused}; ${fix}`, 'unsafe-archive', null, err.message)
    }
    if (err instanceof DamagedArchiveError) {
      const unreadable = `llama.cpp ${release.tag}'s archive ${err.archive} cannot be read although it matches its digest`
      const fix = 'so the release itself is broken and nothing was installed; choose another --tag.'
      throw new EngineError(`${unreadable}, ${fix}`, 'bad-answer', null, err.detail)
    }
    if (isNoSpace(err))
      throw new EngineError(
        `Not enough disk space in ${root} to install llama.cpp ${release.tag} (about ` +
          `${Math.ceil((assets.reduce((s, a) => s + a.size, 0) * 3) / 1048576)} ` +
          `MB needed while installing): free some space and try again; nothing was left behind.`,
        'disk-full',
        null,
        String(err),
      )
    throw err
  } finally {
    await rm(work, { recursive: true, force: true })
    // Complete archives are not kept (success or not); a cut download's .part stays in .downloads to be resumed.
    for (const a of assets) await rm(join(downloads, a.name), { force: true })
    await rmdir(downloads).catch(() => {}) // only when empty: a cut download's part stays to be resumed
  }
}

/** Extracts one archive into `dir` and returns the folder holding its files (a tarball's one top folder is looked into). */
async function extractInto(
  archive: string,
  dir: string,
  exe: string | null,
  progress: (p: InstallProgress) => void,
  name: string,
): Promise<string> {
  progress({ phase: 'extract', asset: name })
  await mkdir(dir)
  await extractArchive(archive, dir)
  const top = await readdir(dir)
  if (exe !== null && top.includes(exe)) return dir
  if (top.length === 1 && (await stat(join(dir, top[0] as string))).isDirectory()) {
    const inner = join(dir, top[0] as string)
    if (exe === null || (await readdir(inner)).includes(exe)) return inner
  }
  if (exe === null) return dir
  throw new EngineError(
    `The archive ${name} holds no ${exe} (it has: ${top.slice(0, 8).join(', ') || 'nothing'}): choose another --backend or --tag.`,
    'bad-answer',
  )
}
