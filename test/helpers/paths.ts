import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
/** shared/ sits beside the repository (../shared), for developers and CI alike. */
export const SHARED = resolve(REPO_ROOT, '..', 'shared')
export const MODELS = join(SHARED, 'fixtures', 'models')
export const LLAMA_LOGS = join(SHARED, 'fixtures', 'llama-server', 'logs')
export const FAKE_SERVER = join(REPO_ROOT, 'test', 'fixtures', 'fake-llama-server.mjs')
export const CLI = join(REPO_ROOT, 'out', 'cli', 'llama-tray.mjs')

export function model(name: string): string {
  const path = join(MODELS, name)
  if (!existsSync(path)) throw new Error(`fixture model missing: ${path} (is ../shared beside the repository?)`)
  return path
}
