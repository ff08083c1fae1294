import { cutText, MAX_LISTED_NAME, MAX_LISTED_SENTENCE } from '../lib/cut-text'
import { readdir, realpath, stat } from 'node:fs/promises'
import type { DiscoveredModel } from '../contract/profile'
import { GgufError } from '../fit/gguf-error'
import { readGgufHeader } from '../fit/gguf-header'
import { outOfRange } from '../fit/gguf-model-limits'
import { readGgufModel } from '../fit/gguf-model'
import { discoveryId } from './discovery-id'
import { pathApi } from './discovery-places'
import { quantisationFromName, quantisationFromTensors } from './discovery-quant'

export interface ModelWalkLimits {
  /** Folder levels below each root (the HF cache needs 3: models--x/snapshots/<hash>). */
  readonly maxDepth: number
  /** Directory entries looked at in all, so a huge folder cannot stall discovery. */
  readonly maxEntries: number
}

export const DEFAULT_WALK_LIMITS: ModelWalkLimits = { maxDepth: 5, maxEntries: 50_000 }

interface Found {
  readonly path: string
  readonly real: string
  readonly source: string
}

// Only the first part of a split model is loadable (llama-server finds the others).
const SPLIT_PART = /-(\d+)-of-\d+\.gguf$/i
const isLaterSplitPart = (name: string): boolean => Number(SPLIT_PART.exec(name)?.[1] ?? 1) > 1
// Vision projectors are GGUFs too, but never a model to serve on their own.
const PROJECTOR = /^mmproj/i

/** Walks the model folders (bounded), returning each .gguf once (symlinks, such as HF snapshots, resolved). */
export async function findGgufFiles(
  roots: readonly { dir: string; source: string }[],
  platform: NodeJS.Platform,
  limits = DEFAULT_WALK_LIMITS,
): Promise<{ files: Found[]; searched: string[] }> {
  const { join } = pathApi(platform)
  const seen = new Set<string>()
  const files: Found[] = []
  const searched: string[] = []
  let entries = 0
  const walk = async (dir: string, depth: number, source: string): Promise<void> => {
    let list
    try {
      list = await readdir(dir, { withFileTypes: true })
    } catch {
      return // missing or unreadable: skipped
    }
    for (const e of list) {
      if (++entries > limits.maxEntries) return
      const path = join(dir, e.name)
      if (e.name.startsWith('.') || e.name === 'blobs') continue
      let isDir = e.isDirectory()
      let isFile = e.isFile()
      if (e.isSymbolicLink()) {
        const st = await stat(path).catch(() => null)
        isDir = st?.isDirectory() ?? false
        isFile = st?.isFile() ?? false
      }
      if (isDir && depth < limits.maxDepth) await walk(path, depth + 1, source)
      else if (isFile && /\.gguf$/i.test(e.name) && !isLaterSplitPart(e.name) && !PROJECTOR.test(e.name)) {
        const real = await realpath(path).catch(() => path)
        if (seen.has(real)) continue
        seen.add(real)
        files.push({ path, real, source })
      }
    }
  }
  for (const root of roots) {
    searched.push(root.dir)
    await walk(root.dir, 0, root.source)
  }
  return { files, searched }
}

const num = (v: unknown): number | null => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null)

/** Header facts for an architecture the estimator does not know: the picker can still show it (if they are sane). */
async function plainHeader(path: string): Promise<Pick<DiscoveredModel, 'architecture' | 'layers' | 'experts' | 'trainingContext'>> {
  const md = (await readGgufHeader(path)).metadata
  const arch = typeof md['general.architecture'] === 'string' ? md['general.architecture'] : null
  for (const key of ['block_count', 'expert_count', 'context_length'] as const) {
    const why = arch ? outOfRange(md, arch, key) : null
    if (why) throw new GgufError(path.split(/[\\/]/).pop() ?? path, why)
  }
  return {
    architecture: arch === null ? null : cutText(arch, MAX_LISTED_NAME),
    layers: arch ? num(md[`${arch}.block_count`]) : null,
    experts: arch ? num(md[`${arch}.expert_count`]) : null,
    trainingContext: arch ? num(md[`${arch}.context_length`]) : null,
  }
}

/** What the picker needs from one file, plus the vocabulary size to match drafts with targets. */
export interface ModelFacts {
  readonly model: Omit<DiscoveredModel, 'looksLikeDraft'>
  readonly vocab: number | null
}

/** Reads one model's header; a bad file is listed with its problem, never thrown. */
export async function readModelFacts(found: Found): Promise<ModelFacts> {
  const file = found.path.split(/[\\/]/).pop() ?? found.path
  const size = (await stat(found.real).catch(() => null))?.size ?? 0
  const base = { id: discoveryId('m', found.real), path: found.path, fileMiB: Math.round((size / 2 ** 20) * 10) / 10, source: found.source }
  try {
    const m = await readGgufModel(found.real)
    return {
      model: {
        ...base,
        architecture: m.architecture === null ? null : cutText(m.architecture, MAX_LISTED_NAME),
        quantisation: quantisationFromName(file) ?? quantisationFromTensors(m.tensors),
        layers: m.blockCount,
        experts: m.expertCount > 0 ? m.expertCount : null,
        trainingContext: m.trainingContext > 0 ? m.trainingContext : null,
        problem: null,
      },
      vocab: m.vocab > 0 ? m.vocab : null,
    }
  } catch (err) {
    let problem = err instanceof Error ? err.message : String(err)
    if (/unknown architecture/.test(problem)) {
      const header = await plainHeader(found.real).catch((e: unknown) => (e instanceof GgufError ? e : null))
      if (header instanceof GgufError) problem = header.message
      else if (header) return { model: { ...base, ...header, quantisation: quantisationFromName(file), problem: null }, vocab: null }
    }
    return {
      model: {
        ...base,
        architecture: null,
        quantisation: quantisationFromName(file),
        layers: null,
        experts: null,
        trainingContext: null,
        problem: cutText(problem, MAX_LISTED_SENTENCE),
      },
      vocab: null,
    }
  }
}

const family = (arch: string): string => arch.replace(/moe$/, '')

/**
 * A draft is a small model that can speak for a bigger one: the same
 * vocabulary (or, when unknown, the same architecture family) and at most a
 * quarter of the bigger file's size.
 */
export function markDrafts(facts: readonly ModelFacts[]): DiscoveredModel[] {
  return facts.map((f) => {
    const me = f.model
    const draftFor =
      me.problem !== null
        ? []
        : facts
            .filter((o) => {
              const other = o.model
              if (other.id === me.id || other.problem !== null || me.fileMiB <= 0 || me.fileMiB * 4 > other.fileMiB) return false
              if (f.vocab !== null && o.vocab !== null) return f.vocab === o.vocab
              return me.architecture !== null && other.architecture !== null && family(me.architecture) === family(other.architecture)
            })
            .map((o) => o.model.id)
    return { ...me, looksLikeDraft: draftFor.length > 0, draftFor }
  })
}
