import { DEFAULT_HEADROOM_MIB, searchNCpuMoe } from '../fit/fit-report'
import { expertLayers, readGgufModel, type GgufModel } from '../fit/gguf-model'
import { parseLlamaArgs } from '../fit/llama-args'
import { renderArgs } from './profile-args'
import type { Profile, ProfileSettings } from './schema'

const MIB = 1024 * 1024

export interface StarterGpu {
  /** Free VRAM on the GPU the profile is made for; null when no NVIDIA GPU was read (every expert stays on the CPU). */
  readonly freeMiB: number | null
  readonly headroomMiB?: number
}

async function readOrNull(path: string | undefined): Promise<GgufModel | null> {
  return path ? readGgufModel(path).catch(() => null) : null
}

/**
 * A created profile fitted to the GPU it is made for, so that our own advisor has nothing to warn about:
 * - an MoE model gets the --n-cpu-moe the fit picks for the free VRAM less the headroom (all experts on the CPU,
 *   --cpu-moe, when no GPU was read or none fit);
 * - where experts are on the CPU, the weights are loaded into RAM (-lm none; the gate writes the binary's
 *   spelling): memory-mapped experts page-fault on every token.
 * A model that cannot be read, or has no experts, keeps its settings.
 */
export async function fitStarterProfile(profile: Profile, gpu: StarterGpu): Promise<Profile> {
  const model = await readOrNull(profile.model)
  if (!model || expertLayers(model).length === 0) return profile
  const draft = await readOrNull(profile.draftModel)
  const { cpuMoe: _all, nCpuMoe: _n, ...rest } = profile.settings
  const base: ProfileSettings = rest
  let placed: ProfileSettings = { ...base, cpuMoe: true }
  if (gpu.freeMiB !== null) {
    const settings = parseLlamaArgs(renderArgs({ ...profile, settings: base })).settings
    const budget = (gpu.freeMiB - (gpu.headroomMiB ?? DEFAULT_HEADROOM_MIB)) * MIB
    const { chosen } = searchNCpuMoe(model, draft, settings, budget)
    if (chosen !== null) placed = chosen > 0 ? { ...base, nCpuMoe: chosen } : base
  }
  const expertsOnCpu = placed.cpuMoe === true || (placed.nCpuMoe ?? 0) > 0
  return { ...profile, settings: expertsOnCpu ? { ...placed, loadMode: 'none' } : placed }
}
