import { spawn, type ChildProcess } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { FileLockError, withFileLock } from './file-lock'
import { JsonStore, JsonStoreError } from './json-store'
import { openJsonStore } from './registry'
import { listStore, type ListFile } from '../../../test/support/json-store/list-store'

const repoRoot = resolve(__dirname, '..', '..', '..')
let scratch: string
let child: string
let folderCount = 0
const children: ChildProcess[] = []

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'llama-tray-json-store-'))
  const out = join(scratch, 'child')
  await build({
    logLevel: 'silent',
    configFile: false,
    root: repoRoot,
    build: {
      ssr: join(repoRoot, 'test/support/json-store/store-child.ts'),
      outDir: out,
      emptyOutDir: true,
      target: 'node20',
      rollupOptions: { output: { format: 'es', entryFileNames: 'child.mjs' } },
    },
    ssr: { noExternal: true },
  })
  child = join(out, 'child.mjs')
}, 60_000)
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL')
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

async function freshFile(): Promise<string> {
  const folder = join(scratch, `f-${folderCount++}`)
  await mkdir(folder)
  return join(folder, 'list.json')
}

/** Starts the helper; resolves once it printed `ready`, then collects its later lines. */
async function startChild(args: string[], ready: string): Promise<{ proc: ChildProcess; lines: string[]; next: () => Promise<string> }> {
  const proc = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(proc)
  const lines: string[] = []
  const waiters: Array<(line: string) => void> = []
  let buffer = ''
  proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk
    const parts = buffer.split('\n')
    buffer = parts.pop() ?? ''
    for (const line of parts) {
      const waiter = waiters.shift()
      if (waiter) waiter(line)
      else lines.push(line)
    }
  })
  const next = (): Promise<string> => {
    const queued = lines.shift()
    return queued !== undefined ? Promise.resolve(queued) : new Promise((r) => waiters.push(r))
  }
  expect(await next()).toBe(ready)
  return { proc, lines, next }
}

const runChild = (args: string[]): Promise<number | null> =>
  new Promise((done) => spawn(process.execPath, [child, ...args], { stdio: 'inherit' }).on('exit', (code) => done(code)))

const killed = (proc: ChildProcess): Promise<void> =>
  new Promise((done) => {
    proc.on('exit', () => done())
    proc.kill('SIGKILL')
  })

const nextChange = (store: JsonStore<ListFile>): Promise<ListFile & { source: string }> =>
  new Promise((done) => {
    const off = store.onDidChange((value, source) => {
      off()
      done({ ...value, source })
    })
  })

describe('JsonStore', () => {
  it('is one instance per file in a process, and keeps the last good file as .bak on every save', async () => {
    const file = await freshFile()
    const store = openJsonStore(listStore(file))
    expect(openJsonStore(listStore(join(file, '..', '.', 'list.json')))).toBe(store)
    expect(await store.load()).toEqual({ version: 2, items: [] })
    expect(store.health).toBe('missing')
    await store.update((v) => ({ ...v, items: ['a'] }))
    await store.update((v) => ({ ...v, items: [...v.items, 'b'] }))
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 2, items: ['a', 'b'] })
    expect(JSON.parse(await readFile(`${file}.bak`, 'utf8'))).toEqual({ version: 2, items: ['a'] })
  })

  it('re-reads the file under the lock before every change: a change written behind its back is kept', async () => {
    const file = await freshFile()
    const store = new JsonStore(listStore(file))
    await store.update((v) => ({ ...v, items: ['mine'] }))
    await writeFile(file, JSON.stringify({ version: 2, items: ['mine', 'theirs'] }))
    await store.update((v) => ({ ...v, items: [...v.items, 'mine-again'] }))
    expect(JSON.parse(await readFile(file, 'utf8')).items).toEqual(['mine', 'theirs', 'mine-again'])
  })

  it('moves a damaged file aside, restores the backup and says so in a notice naming both files', async () => {
    const file = await freshFile()
    const store = new JsonStore(listStore(file))
    await store.update((v) => ({ ...v, items: ['a'] }))
    await store.update((v) => ({ ...v, items: ['a', 'b'] }))
    await writeFile(file, '{"version": 2, "ite')
    const notices: string[] = []
    store.onNotice((n) => notices.push(n))
    const value = await store.load(() => new Date('2026-03-04T05:06:07.089Z'))
    expect(value.items).toEqual(['a'])
    expect(store.health).toBe('recovered-from-backup')
    const aside = `${file}.corrupt-2026-03-04T05-06-07-089Z`
    expect(await readFile(aside, 'utf8')).toBe('{"version": 2, "ite')
    expect(notices[0]).toMatch(
      /^The list file .*list\.json could not be read \(not valid JSON .*truncated\); it was moved to .*corrupt-2026-03-04T05-06-07-089Z\.$/,
    )
    expect(notices[1]).toBe(`The list file was restored from its backup ${file}.bak.`)
    expect(JSON.parse(await readFile(file, 'utf8')).items).toEqual(['a'])
  })

  it('keeps every damaged copy, even two set aside within the same millisecond', async () => {
    const file = await freshFile()
    const sameMs = (): Date => new Date('2026-03-04T05:06:07.089Z')
    for (const damage of ['{"first', '{"second']) {
      await writeFile(file, damage)
      await new JsonStore(listStore(file)).load(sameMs)
    }
    const aside = `${file}.corrupt-2026-03-04T05-06-07-089Z`
    expect(await readFile(aside, 'utf8')).toBe('{"first')
    expect(await readFile(`${aside}-2`, 'utf8')).toBe('{"second')
  })

  it('migrates an older version with a notice, and opens a newer one read-only', async () => {
    const file = await freshFile()
    await writeFile(file, JSON.stringify({ version: 1, names: ['x'] }))
    const store = new JsonStore(listStore(file))
    expect((await store.load()).items).toEqual(['x'])
    expect(store.notices).toEqual([`The list file ${file}: it was migrated from version 1.`])
    await writeFile(file, JSON.stringify({ version: 3, items: ['y'] }))
    expect((await store.load()).items).toEqual(['y'])
    expect(store.health).toBe('read-only')
    await expect(store.update((v) => v)).rejects.toThrow(/newer Llama Tray.*read-only/)
    expect(JSON.parse(await readFile(file, 'utf8')).version).toBe(3)
  })

  it('peek reads the file as it is without repairing it, locking it or changing the store', async () => {
    const file = await freshFile()
    const store = new JsonStore(listStore(file))
    expect(await store.peek()).toEqual({ kind: 'missing' })
    expect(store.peekSync()).toEqual({ kind: 'missing' })
    await store.update((v) => ({ ...v, items: ['a'] }))
    await writeFile(file, JSON.stringify({ version: 1, names: ['old'] }))
    expect(await store.peek()).toEqual({ kind: 'ok', value: { version: 2, items: ['old'] }, notices: ['it was migrated from version 1.'] })
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ version: 1, names: ['old'] }) // nothing written back
    await writeFile(file, '{"version": 2, "ite')
    expect(store.peekSync()).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^not valid JSON/) })
    expect(await store.peek()).toMatchObject({ kind: 'invalid' })
    expect(await readFile(file, 'utf8')).toBe('{"version": 2, "ite')
    expect((await readdir(join(file, '..'))).filter((n) => n.includes('.corrupt-') || n.includes('.lock'))).toEqual([])
    expect(store.value.items).toEqual(['a'])
    expect(store.health).toBe('ok')
  })

  it('answers a folder where the file should be with one sentence', async () => {
    const file = await freshFile()
    await mkdir(file)
    const store = new JsonStore(listStore(file))
    await expect(store.load()).rejects.toThrow(JsonStoreError)
    await expect(store.load()).rejects.toThrow(
      `${file} is a folder where Llama Tray keeps its list file; move that folder away and try again.`,
    )
  })

  it('20 processes adding at once: every item is stored', { timeout: 120_000 }, async () => {
    const file = await freshFile()
    const codes = await Promise.all(Array.from({ length: 20 }, (_, i) => runChild(['add', file, `item-${i}`])))
    expect(codes).toEqual(Array(20).fill(0))
    const items = JSON.parse(await readFile(file, 'utf8')).items as string[]
    expect(items.toSorted()).toEqual(Array.from({ length: 20 }, (_, i) => `item-${i}`).toSorted())
  })
})

describe('change events across processes', () => {
  it("a change written by another process reaches this one, and this one's reaches the other", { timeout: 60_000 }, async () => {
    const file = await freshFile()
    const store = new JsonStore(listStore(file))
    await store.load()
    const seen = nextChange(store)
    expect(await runChild(['add', file, 'from-child'])).toBe(0)
    expect(await seen).toEqual({ version: 2, items: ['from-child'], source: 'disk' })
    const own = nextChange(store)
    await store.update((v) => ({ ...v, items: [...v.items, 'own'] }))
    expect(await own).toEqual({ version: 2, items: ['from-child', 'own'], source: 'self' })

    const watcher = await startChild(['watch', file], 'watching')
    await store.update((v) => ({ ...v, items: [...v.items, 'from-parent'] }))
    expect(await watcher.next()).toBe('from-child,own,from-parent')
  })
})

describe('withFileLock', () => {
  it('waits for a live holder and names the lock folder when it gives up', { timeout: 60_000 }, async () => {
    const file = await freshFile()
    const holder = await startChild(['hold-lock', file], 'locked')
    await expect(withFileLock(file, async () => 'never', { waitMs: 300 })).rejects.toThrow(FileLockError)
    await expect(withFileLock(file, async () => 'never', { waitMs: 300 })).rejects.toThrow(
      `delete ${file}.lock if no Llama Tray is running.`,
    )
    await killed(holder.proc)
    expect(await withFileLock(file, async () => 'taken', { waitMs: 60_000 })).toBe('taken')
  })

  it('takes over a lock left by a killed holder without waiting for it to go stale', { timeout: 60_000 }, async () => {
    const file = await freshFile()
    const holder = await startChild(['hold-lock', file], 'locked')
    await killed(holder.proc)
    expect((await readdir(join(file, '..'))).includes('list.json.lock')).toBe(true)
    // An hour's stale time and wait: only the dead holder's missing process lets this through.
    expect(await withFileLock(file, async () => 'taken', { staleMs: 3_600_000, waitMs: 3_600_000 })).toBe('taken')
    expect((await readdir(join(file, '..'))).filter((n) => n.includes('.lock'))).toEqual([])
  })

  it('takes over a stale lock whose holder cannot be checked (another host)', { timeout: 60_000 }, async () => {
    const file = await freshFile()
    await mkdir(`${file}.lock`)
    await writeFile(`${file}.lock-pid.other-host.1`, '')
    const old = new Date(Date.now() - 60_000)
    await utimes(`${file}.lock`, old, old)
    expect(await withFileLock(file, async () => 'taken', { staleMs: 10_000, waitMs: 3_600_000 })).toBe('taken')
  })
})
