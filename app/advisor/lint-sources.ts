import { stat } from 'node:fs/promises'
import { readGgufModel, type GgufModel } from '../fit/gguf-model'
import { detectFork, type ServerBinaryInfo } from '../profiles/fork-detect'
import { renderArgs } from '../profiles/profile-args'
import type { Profile } from '../profiles/schema'
import { lastValue } from '../contract/flag-args'
import { F } from './flag-names'
import type { LintInput, LintPlatform } from './lint-input'
import { compareVocab, readVocab, type VocabComparison } from './vocab'

export interface GatherOptions {
  readonly platform?: LintPlatform
  /** Engine detection (cached in <home>/engines.json); tests pass a fixture's. */
  readonly detect?: (home: string, binary: string) => Promise<ServerBinaryInfo>
  /** Whether this machine is a laptop, where known (the live advisor reads it from the GPU's name). */
  readonly laptop?: boolean | null
}

/** The facts of one lint and what could not be read (so the user knows which rules were skipped). */
export interface GatheredInput {
  readonly input: LintInput
  readonly notes: readonly string[]
}

const hostPlatform = (): LintPlatform => (process.platform === 'win32' ? 'win32' : process.platform === 'darwin' ? 'darwin' : 'linux')

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}

const models = new Map<string, { key: string; model: GgufModel }>()

/** readGgufModel, cached by path, size and mtime (the live advisor re-reads profiles often). */
export async function readModelCached(path: string): Promise<GgufModel> {
  const st = await stat(path)
  const key = `${st.size}:${st.mtimeMs}`
  const hit = models.get(path)
  if (hit && hit.key === key) return hit.model
  const model = await readGgufModel(path)
  models.set(path, { key, model })
  if (models.size > 16) models.delete(models.keys().next().value as string)
  return model
}

async function readModel(path: string | null, role: string, notes: string[]): Promise<GgufModel | null> {
  if (path === null) return null
  if (!(await isFile(path))) {
    notes.push(`${role} ${path} not found here: rules that read the GGUF were skipped`)
    return null
  }
  try {
    return await readModelCached(path)
  } catch (err) {
    notes.push(`${role} ${path}: ${err instanceof Error ? err.message : String(err)}; rules that read the GGUF were skipped`)
    return null
  }
}

/** Lint facts for a binary (may be '') and its arguments: engine, target and draft GGUFs, their vocabularies. */
export async function gatherLintInput(
  home: string,
  binary: string,
  args: readonly string[],
  options: GatherOptions = {},
): Promise<GatheredInput> {
  const notes: string[] = []
  let binaryInfo: ServerBinaryInfo | null = null
  if (binary === '') notes.push('no llama-server binary: flags were not checked against an engine')
  else if (!(await isFile(binary))) notes.push(`binary ${binary} not found here: flags were not checked against it`)
  else {
    try {
      binaryInfo = await (options.detect ?? detectFork)(home, binary)
    } catch (err) {
      notes.push(`cannot detect the engine of ${binary}: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  const modelPath = lastValue(args, F.model)
  const draftPath = lastValue(args, F.draft)
  const model = await readModel(modelPath, 'model', notes)
  const draft = await readModel(draftPath, 'draft model', notes)
  let vocab: VocabComparison | null = null
  if (model && draft && modelPath && draftPath) {
    try {
      vocab = compareVocab(await readVocab(modelPath), await readVocab(draftPath))
    } catch (err) {
      notes.push(`cannot compare the vocabularies: ${err instanceof Error ? err.message : String(err)}`)
    }
  }
  return {
    input: {
      args: [...args],
      platform: options.platform ?? hostPlatform(),
      binaryInfo: binaryInfo,
      model,
      draft,
      vocab,
      laptop: options.laptop ?? null,
    },
    notes,
  }
}

/** Lint facts for a stored profile. */
export function gatherProfileInput(home: string, profile: Profile, options: GatherOptions = {}): Promise<GatheredInput> {
  return gatherLintInput(home, profile.binary, renderArgs(profile), options)
}
