import { spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HistoryStore } from './history-store'

const repoRoot = resolve(__dirname, '..', '..')
const SQLITE_URL = pathToFileURL(createRequire(import.meta.url).resolve('node-sqlite3-wasm')).href
let scratch: string
let child: string

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'llama-tray-history-procs-'))
  await build({
    logLevel: 'silent',
    configFile: false,
    root: repoRoot,
    build: {
      ssr: join(repoRoot, 'test/support/history/writer-child.ts'),
      outDir: join(scratch, 'child'),
      emptyOutDir: true,
      target: 'node20',
      rollupOptions: {
        // The SQLite build stays a package (it finds its .wasm beside itself), resolved from this repository.
        external: ['node-sqlite3-wasm'],
        output: { format: 'es', entryFileNames: 'child.mjs', paths: { 'node-sqlite3-wasm': SQLITE_URL } },
      },
    },
    ssr: { noExternal: true },
  })
  child = join(scratch, 'child', 'child.mjs')
}, 60_000)
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

const runChild = (file: string, tag: string, count: number): Promise<number | null> =>
  new Promise((done) =>
    spawn(process.execPath, [child, file, tag, String(count)], { stdio: 'inherit', cwd: repoRoot }).on('exit', (code) => done(code)),
  )

describe('the history across processes', () => {
  it('loses nothing when two processes write the same file at once', async () => {
    const file = join(scratch, 'history.sqlite')
    const codes = await Promise.all([runChild(file, 'a', 300), runChild(file, 'b', 300)])
    expect(codes).toEqual([0, 0])
    const store = new HistoryStore(file)
    const rows = await store.listRequests({ sinceMs: null, profileId: null })
    await store.close()
    for (const tag of ['a', 'b']) {
      const paths = rows.filter((r) => r.path.startsWith(`/${tag}/`)).map((r) => Number(r.path.split('/')[2]))
      expect(paths.sort((x, y) => x - y)).toEqual([...Array(300).keys()])
    }
  }, 120_000)
})
