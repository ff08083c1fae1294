import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * Where Electron's binary is, found the way node_modules/electron/index.js
 * finds it but without its side effect: requiring that file downloads the
 * binary when it is missing and, when the download is skipped or blocked,
 * throws the raw "Electron uninstall" error. Returns { path } when the binary
 * is there, else { missing } with the place it was looked for.
 */
export function findElectronBinary(env = process.env, from = import.meta.url) {
  let packageDir
  try {
    packageDir = dirname(createRequire(from).resolve('electron/package.json'))
  } catch {
    return { missing: 'node_modules/electron (the package is not installed)' }
  }
  const pathFile = join(packageDir, 'path.txt')
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null
  if (env.ELECTRON_OVERRIDE_DIST_PATH) {
    const path = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || 'electron')
    return existsSync(path) ? { path } : { missing: path }
  }
  if (!relative) return { missing: `${pathFile} (written when the binary is downloaded)` }
  const path = join(packageDir, 'dist', relative)
  return existsSync(path) ? { path } : { missing: path }
}

/** The one sentence `npm start` prints when the binary is missing: the cause and the two ways on. */
export const MISSING_ELECTRON_SENTENCE =
  "Llama Tray cannot start because Electron's program was not downloaded (npm install skips it when ELECTRON_SKIP_BINARY_DOWNLOAD is set " +
  'or the download is blocked): run `node node_modules/electron/install.js` to fetch it, or use the CLI, which needs no Electron ' +
  '(`npm run build:cli && node out/cli/llama-tray.mjs --help`).'
