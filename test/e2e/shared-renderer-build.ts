import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { buildRenderer } from './build-renderer'

const REPO = join(import.meta.dirname, '..', '..')
const OUT = join(REPO, 'out')
const CACHE = join(OUT, 'renderer-e2e')

/** Everything the renderer's build reads: its sources, the contract it imports, the configs, the locked packages. */
const INPUTS = [
  'renderer',
  join('app', 'contract'),
  join('test', 'e2e', 'vite.renderer.config.mts'),
  join('test', 'e2e', 'build-renderer.ts'),
  'tsconfig.base.json',
  'tsconfig.web.json',
  'package-lock.json',
]

/** The files of a file or folder input, as paths from the repository root. */
function files(input: string): string[] {
  const full = join(REPO, input)
  if (!statSync(full).isDirectory()) return [input]
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(REPO, join(e.parentPath, e.name)))
}

/** A hash of every input's path and bytes, and of the mode: a changed source gives a new build. */
function inputsKey(): string {
  const hash = createHash('sha256')
  for (const path of INPUTS.flatMap(files).sort())
    hash
      .update(`${path}\0`)
      .update(readFileSync(join(REPO, path)))
      .update('\0')
  hash.update(`NODE_ENV=${process.env.NODE_ENV ?? ''}`)
  return hash.digest('hex').slice(0, 16)
}

/**
 * The renderer as the browser tests use it (React's development build under vitest), built once for
 * all the test files of a run instead of once per file: out/renderer-e2e/<hash of its inputs>/. Two
 * files that ask at once may both build; each builds into its own folder and the first rename wins.
 */
export async function sharedRendererBuild(): Promise<string> {
  const key = inputsKey()
  const dir = join(CACHE, key)
  if (existsSync(join(dir, 'index.html'))) return dir
  mkdirSync(CACHE, { recursive: true })
  const scratch = await buildRenderer(mkdtempSync(join(OUT, 'renderer-e2e-building-')))
  // Builds of older sources are of no use any more (a build of this key may land meanwhile: it stays).
  for (const old of readdirSync(CACHE)) if (old !== key) rmSync(join(CACHE, old), { recursive: true, force: true })
  try {
    renameSync(scratch, dir)
  } catch (err) {
    // Another file's build of the same sources won the rename.
    rmSync(scratch, { recursive: true, force: true })
    if (!existsSync(join(dir, 'index.html'))) throw err
  }
  return dir
}
