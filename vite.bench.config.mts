import { builtinModules } from 'node:module'
import { defineConfig } from 'vite'

// `npm run bench` bundles benchmarks/run.ts (and the TypeScript it imports) for Node.
export default defineConfig({
  build: {
    ssr: 'benchmarks/run.ts',
    outDir: 'out/bench',
    emptyOutDir: true,
    target: 'node20',
    rollupOptions: {
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
      output: { format: 'es', entryFileNames: 'run.mjs' },
    },
  },
})
