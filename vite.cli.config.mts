import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { defineConfig } from 'vite'

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }

// The headless CLI: one ESM file for Node, runtime dependencies left external
// (they are installed with the package), Node built-ins external.
export default defineConfig({
  define: { __LLAMA_TRAY_VERSION__: JSON.stringify(version) },
  build: {
    ssr: 'app/cli/main.ts',
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    rollupOptions: {
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'zod', 'tree-kill'],
      output: { format: 'es', entryFileNames: 'llama-tray.mjs', banner: '#!/usr/bin/env node' },
    },
  },
})
