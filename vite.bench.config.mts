import { builtinModules } from 'node:module'
import { defineConfig } from 'vite'

// `npm run bench` bundles benchmarks/run.ts (and the TypeScript it imports) for Node, and the probe that
// `npm run bench windows-scan` runs with Windows Node under Wine.
export default defineConfig({
  build: {
    ssr: true,
    outDir: 'out/bench',
    emptyOutDir: true,
    target: 'node20',
    rollupOptions: {
      input: { run: 'benchmarks/run.ts', 'windows-scan-probe': 'benchmarks/windows/scan-probe.ts' },
      external: [
        ...builtinModules,
        ...builtinModules.map((m) => `node:${m}`),
        'zod',
        'tree-kill',
        'koffi',
        'node-nvidia-smi',
        '@huggingface/gguf',
        'playwright-core',
        // WebAssembly SQLite: it reads its .wasm beside its own file.
        'node-sqlite3-wasm',
      ],
      output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
    },
  },
})
