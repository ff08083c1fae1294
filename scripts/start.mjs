// `npm start`: runs the app from source with electron-vite, after checking that
// Electron's binary is there (without it electron-vite ends in "Error: Electron uninstall").
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { findElectronBinary, MISSING_ELECTRON_SENTENCE } from './electron-binary.mjs'

const found = findElectronBinary()
if (!found.path) {
  process.stderr.write(`${MISSING_ELECTRON_SENTENCE}\n(looked for ${found.missing})\n`)
  process.exit(1)
}
const require = createRequire(import.meta.url)
const cli = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js')
const child = spawn(process.execPath, [cli, 'preview', ...process.argv.slice(2)], { stdio: 'inherit', windowsHide: true })
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
