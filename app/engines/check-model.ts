import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The tiny GGUF the GPU check loads: resources/engine-check/ in the repository, extraResources in the packaged app. */
const CHECK_MODEL = join('engine-check', 'tiny-check.gguf')

/**
 * Where the shipped check model is: beside the packaged app's resources
 * (electron-builder's extraResources, outside the asar so llama-server can
 * read it), else in resources/ above this file (the CLI bundle, the sources).
 */
export function shippedCheckModel(): string | null {
  const packaged = (process as { resourcesPath?: string }).resourcesPath
  if (packaged && existsSync(join(packaged, CHECK_MODEL))) return join(packaged, CHECK_MODEL)
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'resources', CHECK_MODEL)
    if (existsSync(candidate)) return candidate
    if (dirname(dir) === dir) return null
  }
}
