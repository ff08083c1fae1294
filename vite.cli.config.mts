import { readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { defineConfig } from 'vite'

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }

// The headless CLI: an ESM entry for Node and, in chunks/, what each command loads
// when it runs (app/cli/commands/index.ts). zod is bundled: as a package it is
// 229 ES modules, a third of a `profiles list` launch. The other runtime
// dependencies stay external (installed with the package; koffi is native),
// Node built-ins external.
export default defineConfig({
  define: { __LLAMA_TRAY_VERSION__: JSON.stringify(version) },
  ssr: { noExternal: ['zod'] },
  build: {
    ssr: 'app/cli/main.ts',
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    rollupOptions: {
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), 'tree-kill'],
      output: {
        format: 'es',
        entryFileNames: 'llama-tray.mjs',
        chunkFileNames: 'chunks/[name]-[hash].mjs',
        banner: (chunk) => (chunk.isEntry ? '#!/usr/bin/env node' : ''),
      },
    },
  },
})
