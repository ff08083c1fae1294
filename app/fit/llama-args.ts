import { flagUses } from '../contract/flag-args'
import { FitError } from './fit-error'
import { parseCacheType } from './ggml-types'
import { ALL_LAYERS, DEFAULT_SETTINGS, type LaunchSettings } from './launch-settings'

export interface ParsedLaunch {
  readonly model: string | null
  readonly settings: LaunchSettings
}

/** The registry entries (profile field or flag name) that change memory, by the setting they feed. */
const VALUE_FLAGS: Readonly<Record<string, string>> = {
  model: 'model',
  draftModel: 'draft',
  ctxSize: 'ctx',
  parallel: 'parallel',
  cacheTypeK: 'ctk',
  cacheTypeV: 'ctv',
  gpuLayers: 'ngl',
  nCpuMoe: 'ncmoe',
  'override-tensor': 'ot',
  'batch-size': 'batch',
  'ubatch-size': 'ubatch',
  flashAttn: 'fa',
  draftGpuLayers: 'ngld',
  'ctx-size-draft': 'cd',
  'spec-draft-type-k': 'ctkd',
  'spec-draft-type-v': 'ctvd',
}

const SWITCHES: Readonly<Record<string, string>> = {
  'kv-unified': 'kvu',
  'no-kv-unified': 'no-kvu',
  cpuMoe: 'cpumoe',
  'no-kv-offload': 'nkvo',
  'no-op-offload': 'no-op-offload',
}

function int(flag: string, text: string, min: number): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n < min) throw new FitError(`${flag} needs a whole number${min > 0 ? ` ≥ ${min}` : ''}, got "${text}"`)
  return n
}

/** -ngl takes a number, or "all"/"auto" (both mean every layer here). */
function layers(flag: string, text: string): number {
  if (/^(all|auto)$/i.test(text)) return ALL_LAYERS
  const n = Number(text)
  if (n === -1) return ALL_LAYERS
  return int(flag, text, 0)
}

/**
 * Reads the memory-relevant options of a llama-server argument vector
 * (without the binary). Unknown flags are ignored: they do not change memory.
 */
export function parseLlamaArgs(args: readonly string[]): ParsedLaunch {
  const v: Record<string, string> = {}
  const ot: string[] = []
  const sw = new Set<string>()
  for (const use of flagUses(args)) {
    const id = use.def?.field ?? use.def?.name
    if (id === undefined) continue
    const key = VALUE_FLAGS[id]
    if (key) {
      // Older builds: a bare -fa means on.
      const value = key === 'fa' ? (use.value ?? 'on') : use.value
      if (value === null) throw new FitError(`${use.flag} needs a value`)
      if (key === 'ot') ot.push(value)
      else v[key] = value
      continue
    }
    const s = SWITCHES[id]
    if (s) sw.add(s)
  }
  const d = DEFAULT_SETTINGS
  const fa = (v.fa ?? 'auto').toLowerCase()
  const settings: LaunchSettings = {
    ctx: v.ctx !== undefined ? int('-c', v.ctx, 0) || null : null,
    parallel: v.parallel !== undefined && Number(v.parallel) !== -1 ? int('-np', v.parallel, 1) : null,
    kvUnified: sw.has('kvu') ? true : sw.has('no-kvu') ? false : null,
    cacheTypeK: v.ctk !== undefined ? parseCacheType(v.ctk, '-ctk') : d.cacheTypeK,
    cacheTypeV: v.ctv !== undefined ? parseCacheType(v.ctv, '-ctv') : d.cacheTypeV,
    nGpuLayers: v.ngl !== undefined ? layers('-ngl', v.ngl) : d.nGpuLayers,
    nCpuMoe: v.ncmoe !== undefined ? int('--n-cpu-moe', v.ncmoe, 0) : 0,
    cpuMoe: sw.has('cpumoe'),
    overrideTensors: ot,
    batch: v.batch !== undefined ? int('-b', v.batch, 1) : d.batch,
    ubatch: v.ubatch !== undefined ? int('-ub', v.ubatch, 1) : d.ubatch,
    flashAttn: fa === 'off' || fa === '0' || fa === 'false' ? 'off' : fa === 'auto' ? 'auto' : 'on',
    kvOffload: !sw.has('nkvo'),
    opOffload: !sw.has('no-op-offload'),
    draft: v.draft
      ? {
          path: v.draft,
          nGpuLayers: v.ngld !== undefined ? layers('-ngld', v.ngld) : ALL_LAYERS,
          ctx: v.cd !== undefined ? int('-cd', v.cd, 0) || null : null,
          cacheTypeK: v.ctkd !== undefined ? parseCacheType(v.ctkd, '-ctkd') : 'f16',
          cacheTypeV: v.ctvd !== undefined ? parseCacheType(v.ctvd, '-ctvd') : 'f16',
        }
      : null,
  }
  return { model: v.model ?? null, settings }
}
