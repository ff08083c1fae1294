import type { Discovery, DiscoveredModel } from '../../../app/contract/profile'

export interface DiscoveryPick {
  readonly binaryId: string | null
  readonly modelId: string | null
  readonly draftModelId: string | null
}

const usable = (m: DiscoveredModel): boolean => m.problem === null

/** The drafts to offer for a model: draft-sized for it (its vocabulary or family), not merely for another model found. */
export function draftsOf(d: Discovery, modelId: string | null): readonly DiscoveredModel[] {
  if (modelId === null) return []
  return d.models.filter((m) => usable(m) && m.id !== modelId && (m.draftFor ? m.draftFor.includes(modelId) : m.looksLikeDraft))
}

/**
 * The best first guess for a new user: the first binary (discovery lists the
 * likeliest first), the largest readable non-draft model, and the smallest
 * readable draft-sized model of its family when there is one.
 */
export function defaultPick(d: Discovery): DiscoveryPick {
  const targets = d.models.filter((m) => usable(m) && !m.looksLikeDraft)
  const largest = targets.reduce<DiscoveredModel | null>((best, m) => (best === null || m.fileMiB > best.fileMiB ? m : best), null)
  const drafts = draftsOf(d, largest?.id ?? null)
  const smallest = drafts.reduce<DiscoveredModel | null>((best, m) => (best === null || m.fileMiB < best.fileMiB ? m : best), null)
  return {
    binaryId: d.binaries[0]?.id ?? null,
    modelId: largest?.id ?? null,
    draftModelId: largest && smallest ? smallest.id : null,
  }
}

/** File size for the list: GB with one decimal, or MB under a tenth of a GB. */
export function formatModelSize(fileMiB: number): string {
  const gb = (fileMiB * 1024 * 1024) / 1e9
  return gb >= 0.1 ? `${gb.toFixed(1)} GB` : `${((fileMiB * 1024 * 1024) / 1e6).toFixed(1)} MB`
}
