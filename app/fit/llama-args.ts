import { FitError } from './fit-error'
import { parseCacheType } from './ggml-types'
import { ALL_LAYERS, DEFAULT_SETTINGS, type LaunchSettings } from './launch-settings'

export interface ParsedLaunch {
  readonly model: string | null
  readonly settings: LaunchSettings
}

/** Flags that take a value (spellings of mainline llama-server), by the setting they feed. */
const VALUE_FLAGS: Readonly<Record<string, string>> = {
  '-m': 'model', '--model': 'model',
  '-md': 'draft', '--model-draft': 'draft',
  '-c': 'ctx', '--ctx-size': 'ctx',
  '-np': 'parallel', '--parallel': 'parallel',
  '-ctk': 'ctk', '--cache-type-k': 'ctk',
  '-ctv': 'ctv', '--cache-type-v': 'ctv',
  '-ngl': 'ngl', '--gpu-layers': 'ngl', '--n-gpu-layers': 'ngl',
  '-ncmoe': 'ncmoe', '--n-cpu-moe': 'ncmoe',
  '-ot': 'ot', '--override-tensor': 'ot',
  '-b': 'batch', '--batch-size': 'batch',
  '-ub': 'ubatch', '--ubatch-size': 'ubatch',
  '-fa': 'fa', '--flash-attn': 'fa',
  '-ngld': 'ngld', '--gpu-layers-draft': 'ngld', '--n-gpu-layers-draft': 'ngld',
  '-cd': 'cd', '--ctx-size-draft': 'cd',
  '-ctkd': 'ctkd', '--cache-type-k-draft': 'ctkd',
  '-ctvd': 'ctvd', '--cache-type-v-draft': 'ctvd',
}

const SWITCHES: Readonly<Record<string, string>> = {
  '-kvu': 'kvu', '--kv-unified': 'kvu',
  '-no-kvu': 'no-kvu', '--no-kv-unified': 'no-kvu',
  '-cmoe': 'cpumoe', '--cpu-moe': 'cpumoe',
  '-nkvo': 'nkvo', '--no-kv-offload': 'nkvo',
  '--no-op-offload': 'no-op-offload',
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
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1
    const flag = eq > 0 ? arg.slice(0, eq) : arg
    const key = VALUE_FLAGS[flag]
    if (key) {
      let value = eq > 0 ? arg.slice(eq + 1) : args[i + 1]
      // Older builds: a bare -fa means on.
      if (key === 'fa' && eq < 0 && (value === undefined || !/^(on|off|auto|1|0|true|false)$/i.test(value))) value = 'on'
      else if (eq < 0) i++
      if (value === undefined) throw new FitError(`${flag} needs a value`)
      if (key === 'ot') ot.push(value)
      else v[key] = value
      continue
    }
    const s = SWITCHES[flag]
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
