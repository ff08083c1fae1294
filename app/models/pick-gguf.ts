import type { HubFileInfo } from './hub-client'
import { ModelsError } from './models-error'
import { quantisationFromName, splitPart } from './quant-name'

/** One loadable model in a repo: a single GGUF, or the parts of a split set in order. */
export interface GgufModel {
  /** The first part's path in the repo (what llama-server is given). */
  readonly path: string
  readonly parts: readonly HubFileInfo[]
  readonly quant: string | null
  readonly sizeBytes: number
}

const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1)
// Projectors and importance matrices are GGUFs too, but never a model to serve.
const NOT_A_MODEL = /mmproj|imatrix/i
// Tried in turn when no quant is asked for and the repo has several (llama.cpp's own -hf default).
const DEFAULT_QUANTS = ['Q4_K_M', 'Q8_0']

/** The repo's GGUF models, split sets grouped as one. */
export function ggufModels(files: readonly HubFileInfo[]): GgufModel[] {
  const groups = new Map<string, HubFileInfo[]>()
  for (const f of files) {
    if (!/\.gguf$/i.test(f.path) || NOT_A_MODEL.test(baseName(f.path))) continue
    const key = f.path.replace(/-\d{5}-of-\d{5}\.gguf$/i, '.gguf')
    groups.set(key, [...(groups.get(key) ?? []), f])
  }
  return [...groups.values()].map((parts) => {
    const sorted = [...parts].sort((a, b) => (splitPart(baseName(a.path))?.index ?? 1) - (splitPart(baseName(b.path))?.index ?? 1))
    const first = sorted[0] as HubFileInfo
    return {
      path: first.path,
      parts: sorted,
      quant: quantisationFromName(baseName(first.path)),
      sizeBytes: sorted.reduce((n, p) => n + p.size, 0),
    }
  })
}

const hasQuant = (m: GgufModel, quant: string): boolean =>
  new RegExp(`(?:^|[-_.])${quant.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[-_.]|$)`, 'i').test(baseName(m.path).replace(/\.gguf$/i, ''))

const listQuants = (models: readonly GgufModel[]): string[] => [...new Set(models.map((m) => m.quant ?? baseName(m.path)))]

/**
 * The model to pull: the file named (`--file`), else the one whose file name
 * carries the quant tag (case-insensitive), else the only one, else Q4_K_M or
 * Q8_0. No match or several: a ModelsError that lists what exists.
 */
export function pickGguf(repo: string, files: readonly HubFileInfo[], quant: string | null, file: string | null): GgufModel {
  const models = ggufModels(files)
  if (models.length === 0)
    throw new ModelsError(`${repo} has no GGUF files; pick a repo that offers GGUF (its name often ends in -GGUF).`, 'no-gguf')
  if (file) {
    const m = models.find((x) =>
      x.parts.some((p) => p.path.toLowerCase() === file.toLowerCase() || baseName(p.path).toLowerCase() === file.toLowerCase()),
    )
    if (m) return m
    const names = models.map((x) => x.path)
    throw new ModelsError(`${repo} has no file ${file}; it has ${names.join(', ')}.`, 'no-match', names)
  }
  if (quant) {
    const matches = models.filter((m) => hasQuant(m, quant))
    if (matches.length === 1) return matches[0] as GgufModel
    if (matches.length === 0) {
      const quants = listQuants(models)
      throw new ModelsError(
        `${repo} has no ${quant} GGUF; it offers ${quants.join(', ')} (pull one of them with ${repo}:<quant>).`,
        'no-match',
        quants,
      )
    }
    const names = matches.map((m) => m.path)
    throw new ModelsError(`${repo} has several ${quant} GGUFs (${names.join(', ')}); choose one with --file NAME.`, 'ambiguous', names)
  }
  if (models.length === 1) return models[0] as GgufModel
  for (const q of DEFAULT_QUANTS) {
    const matches = models.filter((m) => hasQuant(m, q))
    if (matches.length === 1) return matches[0] as GgufModel
  }
  const quants = listQuants(models)
  throw new ModelsError(`${repo} offers several GGUFs (${quants.join(', ')}); choose one with ${repo}:<quant>.`, 'ambiguous', quants)
}
