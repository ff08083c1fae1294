import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

// Our folders are app/ (core), main/ (Electron main + preload) and renderer/,
// not electron-vite's default src/ layout, so every entry is named here.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: { input: { index: resolve(__dirname, 'main/index.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot require() npm modules: it must be one CJS file.
      rollupOptions: { input: { index: resolve(__dirname, 'main/preload.ts') }, output: { format: 'cjs' } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html'), popover: resolve(__dirname, 'renderer/popover.html') } },
    },
    plugins: [react()],
  },
})
