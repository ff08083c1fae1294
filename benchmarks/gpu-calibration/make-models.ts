// Writes the synthetic, llama-server-loadable Qwen3.6-35B-A3B and Qwen3.5-0.8B
// (real shapes, sparse zero weights) into a folder, with the tokenizer of the
// tiny fixture target. Usage: node make-models.mjs <tiny-target.gguf> <out-dir>
import { gguf } from '@huggingface/gguf'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { loadableGguf } from '../../test/helpers/synthetic/loadable'
import { qwen35SmallGguf, qwen36MoeGguf } from '../../test/helpers/synthetic/qwen36-shapes'
import { writeSyntheticGguf } from '../../test/helpers/synthetic/write-gguf'

const [tokenizerPath, outDir] = process.argv.slice(2)
if (!tokenizerPath || !outDir) {
  console.error('usage: make-models <tokenizer-source.gguf> <out-dir>')
  process.exit(2)
}
mkdirSync(outDir, { recursive: true })
const { metadata } = await gguf(tokenizerPath, { allowLocalFile: true })
for (const [file, spec] of [
  ['Qwen3.6-35B-A3B-Q4_K_M.gguf', qwen36MoeGguf()],
  ['Qwen3.5-0.8B-Q4_K_M.gguf', qwen35SmallGguf()],
] as const) {
  const size = await writeSyntheticGguf(join(outDir, file), loadableGguf(spec, metadata as Record<string, unknown>))
  console.log(`${file}: ${(size / 1e9).toFixed(2)} GB (sparse)`)
}
