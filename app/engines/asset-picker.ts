import { backendLabel, type EngineBackend } from './backends'
import { EngineError } from './engine-error'
import type { Release, ReleaseAsset } from './releases'

/** llama.cpp's name for an OS and an architecture in its asset names. */
const OS_TOKEN: Partial<Record<NodeJS.Platform, string>> = { win32: 'win', linux: 'ubuntu', darwin: 'macos' }
const OS_LABEL: Partial<Record<NodeJS.Platform, string>> = { win32: 'Windows', linux: 'Linux', darwin: 'macOS' }

export interface EngineAsset {
  readonly asset: ReleaseAsset
  readonly backend: EngineBackend
  /** The CUDA version of a CUDA build ("12.4"), else null. */
  readonly cuda: string | null
}

export interface PickedAssets {
  readonly engine: EngineAsset
  /** The CUDA runtime archive extracted beside a CUDA build (required on Windows). */
  readonly cudart: ReleaseAsset | null
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The engine builds of a release for one OS and architecture (asset names as release.yml writes them). */
export function engineAssets(release: Release, platform: NodeJS.Platform, arch: string): EngineAsset[] {
  const os = OS_TOKEN[platform]
  if (!os) return []
  // llama-<tag>-bin-<os>[-<cpu|vulkan|cuda-X.Y>]-<arch>.<zip|tar.gz>; Linux's CPU build has no backend part.
  const pattern = new RegExp(
    `^llama-${escape(release.tag)}-bin-${os}-(?:(cpu|vulkan|cuda-(\\d+)\\.(\\d+))-)?${escape(arch)}\\.(zip|tar\\.gz)$`,
  )
  const out: EngineAsset[] = []
  for (const asset of release.assets) {
    const m = pattern.exec(asset.name)
    if (!m) continue
    const kind = m[1] ?? 'cpu'
    if (kind === 'cpu' || kind === 'vulkan') out.push({ asset, backend: kind, cuda: null })
    else if (m[2] === '12' || m[2] === '13') out.push({ asset, backend: m[2] === '12' ? 'cuda-12' : 'cuda-13', cuda: `${m[2]}.${m[3]}` })
  }
  return out
}

/**
 * The archive for a backend on this OS and architecture, and for CUDA the
 * cudart archive of the same CUDA version (Windows: `cudart-llama-bin-win-cuda-X.Y-x64.zip`,
 * no tag; Linux: `cudart-llama-<tag>-bin-ubuntu-cuda-X.Y-x64.tar.gz`). When the
 * release has no such build, the error lists the builds it has for this machine.
 */
export function pickAssets(release: Release, backend: EngineBackend, platform: NodeJS.Platform, arch: string): PickedAssets {
  const available = engineAssets(release, platform, arch)
  const matching = available.filter((a) => a.backend === backend).sort((a, b) => cudaMinor(b) - cudaMinor(a))
  const where = `${OS_LABEL[platform] ?? platform} ${arch}`
  const engine = matching[0]
  if (!engine) {
    const has =
      available.length > 0
        ? `it has ${[...new Set(available.map((a) => backendLabel(a.backend)))].join(', ')} for ${where} (--backend ` +
          `${[...new Set(available.map((a) => a.backend))].join('|')})`
        : `it has nothing for ${where}; its files: ${release.assets.map((a) => a.name).join(', ') || 'none'}`
    throw new EngineError(`llama.cpp ${release.tag} has no ${backendLabel(backend)} build for ${where}: ${has}.`, 'no-asset')
  }
  if (engine.cuda === null) return { engine, cudart: null }
  const os = OS_TOKEN[platform] as string
  const names = [`cudart-llama-bin-${os}-cuda-${engine.cuda}-${arch}`, `cudart-llama-${release.tag}-bin-${os}-cuda-${engine.cuda}-${arch}`]
  const cudart = release.assets.find((a) => names.some((n) => a.name === `${n}.zip` || a.name === `${n}.tar.gz`)) ?? null
  if (!cudart && platform === 'win32')
    throw new EngineError(
      `llama.cpp ${release.tag} has the CUDA ${engine.cuda} build for ${where} but not its CUDA runtime (${names[0]}.zip): choose ` +
        `--backend vulkan or another release.`,
      'no-asset',
    )
  return { engine, cudart }
}

function cudaMinor(a: EngineAsset): number {
  return a.cuda === null ? 0 : Number(a.cuda.split('.')[1])
}
