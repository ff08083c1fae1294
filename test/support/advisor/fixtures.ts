import { copyFile, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FIXTURES, MODELS } from '../../helpers/paths'
import { GGML_TYPE_ID } from '../../../app/fit/ggml-types'
import { readGgufModel, type GgufModel } from '../../../app/fit/gguf-model'
import { qwen35SmallGguf, qwen36MoeGguf } from '../../helpers/synthetic/qwen36-shapes'
import { writeSyntheticGguf } from '../../helpers/synthetic/write-gguf'
import { forkFromOutput, type ServerBinaryInfo } from '../../../app/profiles/fork-detect'

export { FIXTURES }
export const TINY = (name: string): string => join(MODELS, name)

const read = (p: string): Promise<string> => readFile(join(FIXTURES, p), 'utf8')

/** The three engines, from their real --help/--version output. */
export async function fixtureEngines(): Promise<{ mainline: ServerBinaryInfo; ik: ServerBinaryInfo; buun: ServerBinaryInfo }> {
  return {
    mainline: forkFromOutput(
      '/opt/llama.cpp/bin/llama-server',
      await read('llama-server/responses/llama-server-help.txt'),
      await read('llama-server/responses/version.txt'),
    ),
    ik: forkFromOutput(
      '/opt/ik/llama-server',
      await read('llama-server-forks/ik/help.stdout.txt'),
      await read('llama-server-forks/ik/version.stderr.txt'),
    ),
    buun: forkFromOutput(
      '/opt/buun/llama-server',
      await read('llama-server-forks/buun/help.stdout.txt'),
      await read('llama-server-forks/buun/version.stderr.txt'),
    ),
  }
}

export interface SeedModels {
  readonly dir: string
  readonly qwen36Path: string
  readonly qwen36: GgufModel
  /** The same tables with IQ4_XS experts. */
  readonly qwen36IqPath: string
  readonly qwen36Iq: GgufModel
  readonly draftPath: string
  readonly draft: GgufModel
}

/** Sparse GGUFs with the real Qwen3.6-35B-A3B / Qwen3.5-0.8B shapes (a few KB on disk each). */
export async function seedModels(): Promise<SeedModels> {
  const dir = await mkdtemp(join(tmpdir(), 'llama-tray-advisor-'))
  const qwen36Path = join(dir, 'Qwen3.6-35B-A3B-Q4_K_M.gguf')
  const qwen36IqPath = join(dir, 'Qwen3.6-35B-A3B-IQ4_XS.gguf')
  const draftPath = join(dir, 'Qwen3.5-0.8B-Q4_K_M.gguf')
  const spec = qwen36MoeGguf()
  await writeSyntheticGguf(qwen36Path, spec)
  const iq = GGML_TYPE_ID.iq4_xs as number
  await writeSyntheticGguf(qwen36IqPath, { ...spec, tensors: spec.tensors.map((t) => (/_exps\./.test(t.name) ? { ...t, typeId: iq } : t)) })
  await writeSyntheticGguf(draftPath, qwen35SmallGguf())
  return {
    dir,
    qwen36Path,
    qwen36: await readGgufModel(qwen36Path),
    qwen36IqPath,
    qwen36Iq: await readGgufModel(qwen36IqPath),
    draftPath,
    draft: await readGgufModel(draftPath),
  }
}

/** A copy of a GGUF with one token's text changed (same length), so its vocabulary differs. */
export async function withPatchedToken(source: string, dir: string, from: string, to: string): Promise<string> {
  if (from.length !== to.length) throw new Error('the patch must keep the length')
  const out = join(dir, `patched-${from.replace(/\W/g, '')}.gguf`)
  await copyFile(source, out)
  const bytes = await readFile(out)
  const at = bytes.indexOf(Buffer.from(from, 'utf8'))
  if (at < 0) throw new Error(`${from} not found in ${source}`)
  bytes.write(to, at, 'utf8')
  await writeFile(out, bytes)
  return out
}
