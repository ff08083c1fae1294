import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** The repository root: the first folder up from here with renderer/src/main.tsx (works from test/e2e/ and from a bundle in out/). */
function repoRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'renderer', 'src', 'main.tsx'))) return dir
    if (dirname(dir) === dir) throw new Error(`no repository root above ${from}`)
  }
}

const REPO = repoRoot(import.meta.dirname)

/**
 * Builds the renderer into outDir with Vite (a child process, so tests and the
 * bench do not load Vite themselves) and returns outDir. Under vitest
 * NODE_ENV is "test", which gives React's development build (its warnings
 * reach the e2e tests); `production` builds what the app ships.
 */
export async function buildRenderer(outDir: string, options: { production?: boolean } = {}): Promise<string> {
  const vite = join(REPO, 'node_modules', 'vite', 'bin', 'vite.js')
  const config = join(REPO, 'test', 'e2e', 'vite.renderer.config.mts')
  const child = spawn(process.execPath, [vite, 'build', '--config', config, '--outDir', outDir, '--emptyOutDir'], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.production ? { ...process.env, NODE_ENV: 'production' } : process.env,
  })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c))
  child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c))
  const code = await new Promise<number | null>((r) => child.on('close', r))
  if (code !== 0 || !existsSync(join(outDir, 'index.html'))) throw new Error(`the renderer build failed (exit ${code}):\n${output}`)
  return outDir
}
