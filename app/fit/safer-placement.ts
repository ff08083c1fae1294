import { spellingsOf, usesOf } from '../contract/flag-args'
import { estimateLaunch } from './estimate'
import { gpuBytes } from './fit-report'
import { expertLayers, type GgufModel } from './gguf-model'
import { ALL_LAYERS, type LaunchSettings } from './launch-settings'
import { parseLlamaArgs } from './llama-args'
import { CUDA_RUNTIME_MIB } from './runtime-overhead'

const MIB = 1024 * 1024
/** The smallest context the retry goes down to: below it a chat model is of little use. */
const MIN_CTX = 4096

/** One flag the retry changed: its spelling in the new command and the values before and after. */
export interface PlacementChange {
  /** The registry's name of the flag: n-cpu-moe, gpu-layers or ctx-size. */
  readonly name: 'n-cpu-moe' | 'gpu-layers' | 'ctx-size'
  readonly flag: string
  readonly from: string | null
  readonly to: string
}

export interface SaferPlacement {
  /** The launch arguments with the changes applied (the binary not included). */
  readonly args: string[]
  readonly changes: readonly PlacementChange[]
  /** The GPU estimate (buffers plus runtime) of the old and the new placement, MiB. */
  readonly beforeMiB: number
  readonly afterMiB: number
  /** Free VRAM less the headroom: what the new placement was fitted to, MiB. */
  readonly budgetMiB: number
}

export interface PlacementBudget {
  /** Free VRAM now, not counting our own (stopped) server. */
  readonly freeVramMiB: number
  readonly headroomMiB: number
  /** The CUDA runtime learned for this GPU; the measured default otherwise. */
  readonly runtimeMiB?: number | null
}

function gpuMiB(model: GgufModel, draft: GgufModel | null, settings: LaunchSettings, runtimeMiB: number): number {
  return gpuBytes(estimateLaunch(model, draft, settings)) / MIB + (settings.nGpuLayers > 0 ? runtimeMiB : 0)
}

/** `args` with the last use of a flag's value replaced (every other use removed), or the flag added at the end. */
function withValue(args: readonly string[], name: string, value: string): { args: string[]; spelling: string; from: string | null } {
  const uses = usesOf(args, spellingsOf(name))
  const last = uses[uses.length - 1]
  const spelling = last?.flag ?? (spellingsOf(name)[0] as string)
  const drop = new Map(uses.map((u) => [u.index, u.span]))
  const out: string[] = []
  let at: number | null = null
  for (let i = 0; i < args.length; i++) {
    const span = drop.get(i)
    if (span === undefined) {
      out.push(args[i] as string)
      continue
    }
    if (i === last?.index) at = out.length
    i += span - 1
  }
  out.splice(at ?? out.length, 0, spelling, value)
  return { args: out, spelling, from: last?.value ?? null }
}

interface Candidate {
  readonly settings: LaunchSettings
  readonly edits: ReadonlyArray<readonly [name: PlacementChange['name'], value: string]>
}

/** Placements safer than `current`, in the order a user would want them tried: experts to the CPU, layers to the CPU, a smaller context. */
function* saferCandidates(model: GgufModel, current: LaunchSettings, ctxNow: number): Generator<Candidate> {
  const expertMax = Math.max(0, ...expertLayers(model).map((l) => l + 1))
  const moe = expertMax > 0 && !current.cpuMoe
  if (moe) {
    for (let n = current.nCpuMoe + 1; n <= expertMax; n++) yield { settings: { ...current, nCpuMoe: n }, edits: [['n-cpu-moe', String(n)]] }
  }
  // Dense models (or every expert already on the CPU): fewer layers on the GPU.
  const base = moe ? { ...current, nCpuMoe: expertMax } : current
  const baseEdits: Candidate['edits'] = moe ? [['n-cpu-moe', String(expertMax)]] : []
  const layersNow = Math.min(current.nGpuLayers, model.blockCount + 1)
  for (let ngl = layersNow - 1; ngl >= 1; ngl--)
    yield { settings: { ...base, nGpuLayers: ngl }, edits: [...baseEdits, ['gpu-layers', String(ngl)]] }
  // Then a smaller context, at the placement the user chose (a context that fits beats layers on the CPU).
  for (let ctx = Math.floor(ctxNow / 2); ctx >= MIN_CTX; ctx = Math.floor(ctx / 2)) {
    yield { settings: { ...current, ctx }, edits: [['ctx-size', String(ctx)]] }
  }
}

/**
 * After a load ran out of GPU memory: the first placement safer than the
 * launch's own whose estimate fits the GPU's free memory now, less the
 * headroom; null when none does (or nothing is on the GPU to move).
 */
export function saferPlacement(
  args: readonly string[],
  model: GgufModel,
  draft: GgufModel | null,
  budget: PlacementBudget,
): SaferPlacement | null {
  const current = parseLlamaArgs(args).settings
  if (current.nGpuLayers <= 0) return null
  const runtimeMiB = budget.runtimeMiB ?? CUDA_RUNTIME_MIB
  const budgetMiB = budget.freeVramMiB - budget.headroomMiB
  const beforeMiB = gpuMiB(model, draft, current, runtimeMiB)
  const ctxNow = current.ctx ?? model.trainingContext
  for (const candidate of saferCandidates(model, { ...current, nGpuLayers: Math.min(current.nGpuLayers, ALL_LAYERS) }, ctxNow)) {
    const afterMiB = gpuMiB(model, draft, candidate.settings, runtimeMiB)
    if (afterMiB > budgetMiB) continue
    let next = [...args]
    const changes: PlacementChange[] = []
    for (const [name, value] of candidate.edits) {
      const edited = withValue(next, name, value)
      next = edited.args
      changes.push({ name, flag: edited.spelling, from: edited.from, to: value })
    }
    return { args: next, changes, beforeMiB: Math.round(beforeMiB), afterMiB: Math.round(afterMiB), budgetMiB: Math.round(budgetMiB) }
  }
  return null
}

/** "--n-cpu-moe 36 (was 10)", "-ngl 20 (was 999)": the changes in the command's own spelling. */
export function describeChanges(changes: readonly PlacementChange[]): string {
  return changes.map((c) => `${c.flag} ${c.to}${c.from === null ? '' : ` (was ${c.from})`}`).join(', ')
}
