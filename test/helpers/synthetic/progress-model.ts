import { gguf } from '@huggingface/gguf'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { model } from '../paths'
import { loadableGguf } from './loadable'
import { qwen35SmallGguf } from './qwen36-shapes'
import { writeSyntheticGguf } from './write-gguf'

/**
 * A model big enough for llama-server to report its load in several steps: the synthetic Qwen3.5-0.8B
 * (real shapes, zero weights, a sparse file of about 0.5 GB) with the tiny target's tokenizer, written
 * into a new temp folder. Load it with `-lm none` (read, not mapped: the reads are the progress).
 */
export async function writeProgressModel(): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'llama-tray-progress-model-')), 'Qwen3.5-0.8B-synthetic.gguf')
  const { metadata } = await gguf(model('tiny-target.gguf'), { allowLocalFile: true })
  await writeSyntheticGguf(path, loadableGguf(qwen35SmallGguf(), metadata as Record<string, unknown>))
  return path
}

/** The arguments that make it load as the tests want it: read (not mapped), one thread, a small context, no fit pre-pass. */
export const PROGRESS_MODEL_ARGS = ['-lm', 'none', '-c', '512', '-np', '1', '-t', '1', '--fit', 'off'] as const
