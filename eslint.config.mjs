// Boundaries (see README "Layout"): app/ is the framework-free core and must run
// in plain Node; app/contract/ is shared with the renderer, so it imports nothing
// from Node; the renderer sees the core only through app/contract/.
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'
import { builtinModules } from 'node:module'

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)]
const frameworks = ['electron', 'react', 'react-dom', 'react/*', 'react-dom/*', 'zustand', 'zustand/*']

const banned = (patterns, message) => ({ group: patterns, message })

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
      'no-restricted-imports': ['error', {
        patterns: [
          banned(frameworks, 'app/ is the framework-free core: no Electron, React or zustand here.'),
          banned(['**/main/**', '**/renderer/**', '../main', '../renderer'], 'app/ must not depend on main/ or renderer/.'),
        ],
      }],
    },
  },
  {
    files: ['app/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: nodeBuiltins,
        patterns: [
          banned(frameworks, 'The contract is plain types shared by every process.'),
          banned(['../*', '!../contract/*'], 'The contract imports only from app/contract/.'),
        ],
      }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': ['error', {
        paths: ['electron', ...nodeBuiltins],
        patterns: [
          banned(['**/main/**'], 'The renderer talks to main only through window.llamaTray (preload).'),
          banned(['**/app/*', '!**/app/contract'], 'The renderer sees the core only through app/contract/.'),
          banned(['**/app/*/**', '!**/app/contract/**'], 'The renderer sees the core only through app/contract/.'),
        ],
      }],
    },
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/ipc-main.ts', 'main/preload.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', importNames: ['ipcMain', 'ipcRenderer'], message: 'Use main/ipc-main.ts: typed, validated channels only.' }],
      }],
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
)
