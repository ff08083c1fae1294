import type { DiscoveredBinary, DiscoveredModel, Discovery } from '../contract/profile'
import { makeProfileId } from './profile-id'
import type { Profile, ProfileSettings } from './schema'
import { problem, type Problem } from '../contract/problem'

export class DiscoveryPickError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DiscoveryPickError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('profile', this.message)
  }
}

/** The context a new profile starts with: enough for chat, small enough for an 8 GB card. */
export const STARTER_CONTEXT = 8192

/**
 * Launch settings for a model nobody has tuned yet:
 * - context: the training context, capped at 8192. The KV cache grows with it,
 *   and a first launch that runs out of memory teaches nothing; raise it later.
 * - one slot (-np 1): one user; llama-server's default of several slots splits
 *   the context between them.
 * - all layers on the GPU (-ngl 99), and for an MoE model every expert on the
 *   CPU (--cpu-moe): the seeds' way of running a big MoE on a small card, which
 *   cannot run out of VRAM on the experts. Moving experts back to the GPU
 *   (--n-cpu-moe N) needs a VRAM budget: that is the fit advisor's job.
 */
export function starterSettings(model: DiscoveredModel): ProfileSettings {
  const ctxSize = model.trainingContext && model.trainingContext > 0 ? Math.min(model.trainingContext, STARTER_CONTEXT) : 4096
  return { gpuLayers: '99', ctxSize, parallel: 1, ...(model.experts ? { cpuMoe: true } : {}) }
}

/** The binary a new profile should use: one whose engine is known first, else the first found. */
export function bestBinary(d: Discovery): DiscoveredBinary | null {
  return d.binaries.find((b) => b.fork !== null && b.fork !== 'unknown') ?? d.binaries[0] ?? null
}

/** The model a new profile should serve: a readable, non-draft model, the biggest first (what people download to run). */
export function bestModel(d: Discovery): DiscoveredModel | null {
  const usable = d.models.filter((m) => m.problem === null && !m.looksLikeDraft)
  return [...usable].sort((a, b) => b.fileMiB - a.fileMiB)[0] ?? null
}

/** Whether `draft` is draft-sized for `model` (same vocabulary or family), not merely for some other model found. */
export function draftsFor(draft: DiscoveredModel, model: DiscoveredModel): boolean {
  return draft.id !== model.id && draft.problem === null && (draft.draftFor ? draft.draftFor.includes(model.id) : draft.looksLikeDraft)
}

/** A draft for `model`: the smallest draft-sized model of its vocabulary or family in the discovery, or null. */
export function bestDraft(d: Discovery, model: DiscoveredModel): DiscoveredModel | null {
  return [...d.models.filter((m) => draftsFor(m, model))].sort((a, b) => a.fileMiB - b.fileMiB)[0] ?? null
}

function pick<T extends { id: string }>(items: readonly T[], key: string, what: string): T {
  // By id, or by the 1-based number the CLI prints.
  const byNumber = /^\d+$/.test(key) ? items[Number(key) - 1] : undefined
  const found = items.find((i) => i.id === key) ?? byNumber
  if (!found) throw new DiscoveryPickError(`no discovered ${what} "${key}" (run discovery again: the list may have changed)`)
  return found
}

export interface DiscoveredChoice {
  readonly binary: string
  readonly model: string
  readonly draftModel: string | null
  readonly name: string | null
}

/** A new profile from discovered items named by id or list number; the paths come from the discovery, never from the caller. */
export function profileFromDiscovery(d: Discovery, choice: DiscoveredChoice, takenIds: readonly string[], now = new Date()): Profile {
  const binary = pick(d.binaries, choice.binary, 'binary')
  const model = pick(d.models, choice.model, 'model')
  if (model.problem !== null) throw new DiscoveryPickError(`${model.path} cannot be used: ${model.problem}`)
  const draft = choice.draftModel === null ? null : pick(d.models, choice.draftModel, 'draft model')
  if (draft && draft.id === model.id) throw new DiscoveryPickError('the draft model must be another file than the model')
  if (draft && draft.problem !== null) throw new DiscoveryPickError(`${draft.path} cannot be used: ${draft.problem}`)
  const fileName = model.path.split(/[\\/]/).pop() ?? model.path
  const name = choice.name ?? fileName.replace(/\.gguf$/i, '')
  const stamp = now.toISOString()
  return {
    id: makeProfileId(name, takenIds),
    name,
    binary: binary.path,
    model: model.path,
    ...(draft ? { draftModel: draft.path } : {}),
    // Mainline v0.5.0 refuses -md without a speculative type; the forks spell it differently (the flag check offers theirs).
    settings: { ...starterSettings(model), ...(draft && binary.fork === 'mainline' ? { specType: 'draft-simple' } : {}) },
    extraArgs: [],
    env: {},
    notes:
      `Created from discovery: ` +
      `${[model.architecture, model.quantisation, model.experts ? `${model.experts} experts` : null].filter(Boolean).join(', ')}.`,
    createdAt: stamp,
    updatedAt: stamp,
  }
}
