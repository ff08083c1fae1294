import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './helpers/paths'

/** Every folder under `dir`, repository-relative. */
function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [relative(REPO_ROOT, join(dir, e.name)), ...folders(join(dir, e.name))])
}

/** The tracked and new TypeScript files of `folders` that are not tests, repository-relative with '/'. */
function productionFiles(...roots: string[]): string[] {
  return execFileSync('git', ['ls-files', '-co', '--exclude-standard', ...roots], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) && existsSync(join(REPO_ROOT, f)))
}

const RELATIVE_IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]*)['"]/g

function resolveImport(fromFile: string, specifier: string): string | undefined {
  for (const ext of ['', '.ts', '.tsx', '/index.ts']) {
    const candidate = join(dirname(fromFile), specifier + ext)
      .split('\\')
      .join('/')
    const full = join(REPO_ROOT, candidate)
    if (existsSync(full) && statSync(full).isFile()) return candidate
  }
  return undefined
}

/** The files reached from `entries` through relative imports (static and dynamic). */
function reachable(entries: readonly string[]): Set<string> {
  const seen = new Set<string>()
  const stack = [...entries]
  for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
    if (seen.has(file)) continue
    seen.add(file)
    for (const [, specifier] of readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(RELATIVE_IMPORT)) {
      const target = resolveImport(file, specifier!)
      if (target !== undefined) stack.push(target)
    }
  }
  return seen
}

// The entries the builds bundle (electron.vite.config.ts, vite.cli.config.mts); the renderer's files all ship.
const ENTRIES = ['main/index.ts', 'main/preload.ts', 'app/cli/main.ts']
// The contract's barrel: no product file imports it yet, it is the one import the renderer's lint rule allows.
const UNREACHED_ON_PURPOSE = new Set(['app/contract/index.ts'])

// app/ and main/ hold what ships; tests' and benchmarks' support lives in test/ and benchmarks/.
describe('app/ and main/ hold only what ships', () => {
  it('have no testing/ folder (test support lives in test/support/)', () => {
    const all = [...folders(join(REPO_ROOT, 'app')), ...folders(join(REPO_ROOT, 'main'))]
    expect(all).toContain(join('app', 'lib', 'json-store'))
    expect(all.filter((f) => /(^|[\\/])testing$/.test(f))).toEqual([])
  })

  it('every file of app/ and main/ that is not a test is bundled by the app or the CLI', () => {
    const files = productionFiles('app', 'main')
    const shipped = reachable([...ENTRIES, ...productionFiles('renderer')])
    expect(shipped).toContain('app/supervisor/supervisor.ts')
    expect(files.filter((f) => !shipped.has(f) && !UNREACHED_ON_PURPOSE.has(f))).toEqual([])
  })
})
