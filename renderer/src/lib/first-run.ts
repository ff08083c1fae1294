import { backendLabel, type EngineInstallPlan, type EngineInstallProgress } from '../../../app/contract/engines'
import type { Discovery } from '../../../app/contract/profile'

/** What the first-run view is for: a machine with no llama-server or no usable model. */
export function missingForFirstRun(d: Discovery): { readonly engine: boolean; readonly model: boolean } {
  return { engine: d.binaries.length === 0, model: !d.models.some((m) => m.problem === null) }
}

/** Download sizes as people read them: "24 MB", "1.2 GB" (decimal, as GitHub and browsers show them). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(bytes >= 1e8 ? 0 : 1)} MB`
  return `${Math.max(0, Math.round(bytes / 1e3))} kB`
}

/** "Install llama.cpp (CUDA 12, ~573 MB)"; before the release is known, "Install llama.cpp". */
export function installLabel(plan: EngineInstallPlan | null): string {
  if (!plan) return 'Install llama.cpp'
  return `Install llama.cpp (${backendLabel(plan.backend)}, ~${formatBytes(plan.downloadBytes)})`
}

/** Why this build: the GPU and driver that decided it, or their absence. */
export function backendReason(plan: EngineInstallPlan): string {
  const build = `llama.cpp ${plan.tag}, the ${backendLabel(plan.backend)} build`
  if (plan.gpuName) return `${plan.gpuName}${plan.driverCuda ? ` (driver CUDA ${plan.driverCuda})` : ''}: ${build}.`
  return `No NVIDIA GPU found: ${build}.`
}

/** "12.3 MB of 24.0 MB · 5.1 MB/s", for the bar's text. */
export function downloadText(p: Pick<EngineInstallProgress, 'bytes' | 'total' | 'rateBps'>): string {
  const done = p.bytes === null ? null : formatBytes(p.bytes)
  const of = p.total === null ? '' : ` of ${formatBytes(p.total)}`
  const rate = p.rateBps === null || p.rateBps <= 0 ? '' : ` · ${formatBytes(p.rateBps)}/s`
  return done === null ? '' : `${done}${of}${rate}`
}

/** What each install phase is called on screen. */
export function installPhaseText(p: EngineInstallProgress): string {
  switch (p.phase) {
    case 'release':
      return 'Asking GitHub for the release…'
    case 'download':
      return `Downloading ${p.asset ?? 'llama.cpp'}`
    case 'extract':
      return `Unpacking ${p.asset ?? 'the archive'}…`
    case 'verify':
      return 'Checking that llama-server runs on this machine…'
    case 'check':
      return 'Checking that llama-server computes on this GPU…'
    case 'done':
      return 'Installed.'
  }
}
