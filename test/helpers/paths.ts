import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The one place that knows where the repository and its test fixtures are. Every
 * fixture lives in the repository (test/fixtures/README.md says where each came
 * from), so a fresh clone tests on its own.
 */

/** The folder holding package.json above this file: test/helpers/ in the sources, out/bench/ once `npm run bench` bundles it. */
function repoRootAbove(file: string): string {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) throw new Error(`No package.json above ${file}; run the tests from a checkout of the repository.`)
  }
}

export const REPO_ROOT = repoRootAbove(fileURLToPath(import.meta.url))
export const FIXTURES = join(REPO_ROOT, 'test', 'fixtures')
/** The tiny real GGUF models. */
export const MODELS = join(FIXTURES, 'models')
/** Mainline llama-server v0.5.0 with the tiny models: logs/ (stderr of runs) and responses/ (HTTP bodies, --help, --version). */
export const LLAMA_LOGS = join(FIXTURES, 'llama-server', 'logs')
/** The forks' captures, one folder each (ik/, buun/): stdout and stderr of runs, --help, --version. */
export const FORKS = join(FIXTURES, 'llama-server-forks')
/** Real nvidia-smi output: h200-driver580/ and public-laptop-excerpts/. */
export const SMI_CAPTURES = join(FIXTURES, 'nvidia-smi')
export const SMI_H200 = join(SMI_CAPTURES, 'h200-driver580')
/** Our own NVML and nvidia-smi readings on the H200. */
export const SMI_H200_NVML = join(FIXTURES, 'nvidia-smi-h200-nvml')
/** llama-server built with CUDA on an H200: logs of the calibration runs and llama-fit-params recordings (llama-fit/). */
export const CUDA_H200 = join(FIXTURES, 'llama-server-cuda-h200')
export const LLAMA_FIT_RECORDINGS = join(CUDA_H200, 'llama-fit')
/** A fake nvidia-smi that replays SMI_H200 (put this folder first on PATH). */
export const FAKE_SMI_DIR = join(FIXTURES, 'fake-nvidia-smi')
export const FAKE_SERVER = join(FIXTURES, 'fake-llama-server.mjs')
export const CLI = join(REPO_ROOT, 'out', 'cli', 'llama-tray.mjs')

export function model(name: string): string {
  const path = join(MODELS, name)
  if (!existsSync(path))
    throw new Error(`The test model ${name} is missing from ${MODELS}; restore it with \`git checkout -- test/fixtures/models\`.`)
  return path
}
