import type { DiscoveredBinary } from './profile'

/** The llama.cpp builds an engine install can ask for; `auto` picks one from the GPU. */
export const ENGINE_BACKENDS = ['cpu', 'cuda-12', 'cuda-13', 'vulkan'] as const
export type EngineBackend = (typeof ENGINE_BACKENDS)[number]
export type BackendChoice = EngineBackend | 'auto'
export const BACKEND_CHOICES: readonly BackendChoice[] = ['auto', ...ENGINE_BACKENDS]

/** How people name a backend ("CUDA 12"), in the CLI and the dashboard. */
export function backendLabel(backend: EngineBackend): string {
  return { cpu: 'CPU', 'cuda-12': 'CUDA 12', 'cuda-13': 'CUDA 13', vulkan: 'Vulkan' }[backend]
}

/** An engine installed by Llama Tray in <home>/engines/<id>/. */
export interface InstalledEngineSummary {
  /** `<tag>-<backend>`, the folder's name. */
  readonly id: string
  readonly tag: string
  readonly backend: EngineBackend
  /** The llama-server binary. */
  readonly path: string
  readonly version: string | null
  readonly sizeBytes: number
  /** The stored profiles that run it. */
  readonly usedBy: readonly { readonly id: string; readonly name: string }[]
}

export interface EngineListing {
  readonly installed: readonly InstalledEngineSummary[]
  /** llama-server binaries found outside <home>/engines/ (PATH, winget, Scoop, build folders): listed, never managed. */
  readonly elsewhere: readonly DiscoveredBinary[]
}

export interface EngineInstallResult {
  readonly id: string
  readonly tag: string
  readonly backend: EngineBackend
  readonly path: string
  readonly version: string | null
  /** Installed before: nothing was downloaded. */
  readonly alreadyInstalled: boolean
  /** A better build failed the GPU check and this one was installed instead: one sentence, and the log lines behind it. */
  readonly notice?: string | null
  readonly noticeDetail?: string | null
}

/** Pushed while an install runs (downloads at most every 100 ms). */
export interface EngineInstallProgress {
  /** verify: the binary runs; check: it computes on this GPU (the shipped tiny model, a 4-token completion). */
  readonly phase: 'release' | 'download' | 'extract' | 'verify' | 'check' | 'done'
  readonly asset: string | null
  readonly bytes: number | null
  readonly total: number | null
  readonly rateBps: number | null
}

export interface EngineUpdateCheck {
  readonly latest: { readonly tag: string; readonly publishedAt: string | null }
  /** The newest installed engine's tag, null when none is installed. */
  readonly installed: string | null
  readonly newer: boolean
  readonly checkedAt: string
}

/** What engines:install would fetch for this machine, downloading nothing: the first run's offer "Install llama.cpp (CUDA 12, ~N MB)". */
export interface EngineInstallPlan {
  /** The engine's id once installed (`<tag>-<backend>`). */
  readonly id: string
  readonly tag: string
  readonly backend: EngineBackend
  /** The NVIDIA GPU whose driver chose the backend for `auto`, and the driver's CUDA version; null without an NVIDIA driver. */
  readonly gpuName: string | null
  readonly driverCuda: string | null
  /** The archives to download (the build and, for CUDA, its runtime), sizes from the release listing. */
  readonly assets: readonly { readonly name: string; readonly sizeBytes: number }[]
  readonly downloadBytes: number
  /** This engine is installed already: an install downloads nothing. */
  readonly installed: boolean
}

/** What `engines:update` did for one profile: the safety gate's verdict and why. */
export interface EngineUpdateReport {
  readonly profileId: string
  readonly profileName: string
  /** The binary before, and the new engine's. */
  readonly from: string
  readonly to: string
  readonly engineId: string
  readonly adopted: boolean
  /** One line: what happened and why. */
  readonly summary: string
}
