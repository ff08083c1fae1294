// Boundaries (see README "Layout"): app/ is the framework-free core and must run
// in plain Node; app/contract/ is shared with the renderer, so it imports nothing
// from Node; the renderer sees the core only through app/contract/.
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import importX, { createNodeResolver } from 'eslint-plugin-import-x'
import reactHooks from 'eslint-plugin-react-hooks'
import { builtinModules } from 'node:module'

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)]
const frameworks = ['electron', 'react', 'react-dom', 'react/*', 'react-dom/*', 'zustand', 'zustand/*']

const banned = (patterns, message) => ({ group: patterns, message })

// The layers of app/, lowest first (README "Layout"). A folder imports only
// folders of lower layers: never its own layer's peers, never a higher one, so
// app/'s folders cannot form a cycle. Tests and test/ are test
// code, outside the layers (a test may drive the layer above what it tests).
export const APP_LAYERS = [
  ['contract'],
  ['lib', 'home.ts'],
  ['platform'],
  ['telemetry', 'fit', 'models'],
  ['supervisor'],
  ['profiles', 'endpoint'],
  ['metrics', 'settings', 'snapshot', 'history'],
  ['advisor', 'bench'],
  ['engines'],
  ['diagnostics'],
  ['core'],
  ['cli'],
]
const TEST_CODE = ['**/*.test.ts', '**/*.test.tsx', 'test/**']
// Test support lives in test/ (test/helpers/ shared by all, test/support/<folder>/ one folder's fakes and fixtures),
// never in app/ (which holds only what ships); production never imports it.
const testSupportZone = { target: './**', from: ['./test/**'], message: 'Production code must not import test support (test/).' }
// The supervisor class is the core's own: everything above it reads and stops a core's server through the
// core's ports (the read-and-stop view app/supervisor/server-control.ts, core/cli-core.ts, bench/bench-host.ts), so no launch bypasses the core.
const supervisorLayer = APP_LAYERS.findIndex((layer) => layer.includes('supervisor'))
const supervisorZone = {
  target: [
    ...APP_LAYERS.slice(supervisorLayer + 1)
      .flat()
      .filter((f) => f !== 'core')
      .map((f) => `./app/${f}`),
    './main',
  ],
  from: './app/supervisor/supervisor.ts',
  message: "Only app/core/ owns a ServerSupervisor: drive the core's server through its ports (core.server, startSpec, server:start).",
}
const resolver = createNodeResolver({ extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs'] })
const layerZones = APP_LAYERS.flatMap((layer, i) =>
  layer.map((folder) => {
    const notBelow = APP_LAYERS.slice(i)
      .flat()
      .filter((f) => f !== folder)
    return {
      target: `./app/${folder}`,
      from: notBelow.map((f) => `./app/${f}`),
      message:
        `app/${folder} may import only lower layers of app/ (${APP_LAYERS.slice(0, i).flat().join(', ') || 'none'}); ` +
        'see APP_LAYERS in eslint.config.mjs.',
    }
  }),
).filter((zone) => zone.from.length > 0)

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**', '.device/**', '.cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' }],
    },
  },
  {
    files: ['app/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            banned(frameworks, 'app/ is the framework-free core: no Electron, React or zustand here.'),
            banned(['**/main/**', '**/renderer/**', '../main', '../renderer'], 'app/ must not depend on main/ or renderer/.'),
          ],
        },
      ],
    },
  },
  {
    files: ['app/**/*.ts'],
    ignores: TEST_CODE,
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [resolver] },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...layerZones,
            supervisorZone,
            {
              target: './app',
              from: './benchmarks',
              message: "app/ must not depend on the project's benchmarks (benchmarks/ imports app/, not the other way).",
            },
            testSupportZone,
          ],
        },
      ],
    },
  },
  {
    files: ['main/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    ignores: TEST_CODE,
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [resolver] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [testSupportZone, supervisorZone] }] },
  },
  {
    files: ['app/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins,
          patterns: [
            banned(frameworks, 'The contract is plain types shared by every process.'),
            banned(['../*', '!../contract/*'], 'The contract imports only from app/contract/.'),
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['electron', ...nodeBuiltins],
          patterns: [
            banned(['**/main/**'], 'The renderer talks to main only through window.llamaTray (preload).'),
            banned(['**/app/*', '!**/app/contract'], 'The renderer sees the core only through app/contract/.'),
            banned(['**/app/*/**', '!**/app/contract/**'], 'The renderer sees the core only through app/contract/.'),
          ],
        },
      ],
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/ipc-main.ts', 'main/preload.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', importNames: ['ipcMain', 'ipcRenderer'], message: 'Use main/ipc-main.ts: typed, validated channels only.' },
          ],
        },
      ],
    },
  },
  {
    // Tools read these files' default export.
    files: ['*.config.{ts,mts,mjs}', 'eslint.config.mjs'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // Rules that need the types: a promise nobody awaits hides its failure; one passed where
    // a void callback is expected (an event handler) loses it the same way.
    files: ['app/**/*.ts', 'main/**/*.ts', 'renderer/**/*.{ts,tsx}', 'test/**/*.ts', 'benchmarks/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // The two classic hook rules only; the React Compiler rules of the plugin's preset assume the compiler.
    files: ['renderer/**/*.tsx', 'renderer/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
)
