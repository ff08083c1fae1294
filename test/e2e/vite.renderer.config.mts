import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The renderer alone, as electron-vite's renderer section builds it (same root,
// same plugin, relative base), so the browser tests need no Electron build.
const root = resolve(import.meta.dirname, '..', '..', 'renderer')

// eslint-disable-next-line no-restricted-syntax -- Vite reads the config's default export
export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  logLevel: 'warn',
  build: {
    outDir: resolve(import.meta.dirname, '..', '..', 'out', 'renderer'),
    emptyOutDir: true,
    // Both pages, as electron.vite.config.ts builds them: the dashboard and the tray popover.
    rollupOptions: { input: { index: resolve(root, 'index.html'), popover: resolve(root, 'popover.html') } },
  },
})
