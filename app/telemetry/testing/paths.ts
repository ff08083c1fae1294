import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Paths the telemetry tests and benchmarks share. CI clones the repo with shared/ beside it. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
export const smiCaptures = path.resolve(repoRoot, '..', 'shared', 'fixtures', 'nvidia-smi')
export const h200Captures = path.join(smiCaptures, 'h200-driver580')
export const fakeSmiDir = path.join(repoRoot, 'test', 'fixtures', 'fake-nvidia-smi')
export const fakeSmiExe = path.join(fakeSmiDir, 'nvidia-smi')
