import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { renameWithRetry } from '../lib/atomic-write'
import { importCommand } from './import-command'
import { PROFILES_FILE_VERSION } from './schema'
import { parseProfilesText, ProfileStore, ProfileStoreError } from './store'

const repoRoot = resolve(__dirname, '..', '..')
let home: string
let scratch: string

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'llama-tray-store-'))
})
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true })
})

let homeCount = 0
async function freshHome(): Promise<string> {
  home = join(scratch, `home-${homeCount++}`)
  return home
}

const profile = (id: string, n = 1) => ({ ...importCommand(`llama-server -m ${id}.gguf -c ${n}`, { name: id }), id })

describe('ProfileStore', () => {
  it('starts empty when there is no file, saves atomically and keeps a backup of the last good file', async () => {
    const h = await freshHome()
    const store = await ProfileStore.open(h)
    expect(store.health).toBe('missing')
    await store.upsert(profile('a'))
    await store.upsert(profile('b'))
    const main = parseProfilesText(await readFile(join(h, 'profiles.json'), 'utf8'))
    const bak = parseProfilesText(await readFile(join(h, 'profiles.json.bak'), 'utf8'))
    expect(main.kind === 'ok' && main.file.profiles.map((p) => p.id)).toEqual(['a', 'b'])
    expect(bak.kind === 'ok' && bak.file.profiles.map((p) => p.id)).toEqual(['a'])
    const again = await ProfileStore.open(h)
    expect(again.health).toBe('ok')
    expect(again.find('b')?.model).toBe('b.gguf')
    expect((await readdir(h)).filter((n) => n.endsWith('.tmp'))).toEqual([])
  })

  it('remembers the active and the previous profile', async () => {
    const store = await ProfileStore.open(await freshHome())
    await store.upsert(profile('a'))
    await store.upsert(profile('b'))
    await store.setActive('a')
    await store.setActive('b')
    expect(store.file.activeProfileId).toBe('b')
    expect(store.file.previousProfileId).toBe('a')
    await expect(store.setActive('zzz')).rejects.toThrow(ProfileStoreError)
    await store.remove('b')
    expect(store.file.activeProfileId).toBeNull()
  })

  it('refuses to save an invalid file and keeps the old one', async () => {
    const store = await ProfileStore.open(await freshHome())
    await store.upsert(profile('a'))
    await expect(store.upsert({ ...profile('a'), id: 'Bad Id' })).rejects.toThrow()
    expect(store.file.profiles.map((p) => p.id)).toEqual(['a'])
  })

  const damaged: Array<[string, (good: string) => string | Buffer]> = [
    ['empty', () => ''],
    ['NUL-filled', (good) => Buffer.alloc(good.length)],
    ['truncated', (good) => good.slice(0, Math.floor(good.length / 2))],
    ['not JSON', () => 'profiles: yes'],
    ['valid JSON of the wrong shape', () => JSON.stringify({ version: 1, profiles: 'none' })],
  ]
  it.each(damaged)('quarantines a %s file and restores the backup', async (_name, damage) => {
    const h = await freshHome()
    const store = await ProfileStore.open(h)
    await store.upsert(profile('a'))
    await store.upsert(profile('b'))
    const good = await readFile(join(h, 'profiles.json'), 'utf8')
    await writeFile(join(h, 'profiles.json'), damage(good))
    const reopened = await ProfileStore.open(h, () => new Date('2026-01-02T03:04:05.678Z'))
    expect(reopened.health).toBe('recovered-from-backup')
    expect(reopened.file.profiles.map((p) => p.id)).toEqual(['a'])
    const names = await readdir(h)
    expect(names).toContain('profiles.json.corrupt-2026-01-02T03-04-05-678Z')
    expect(await readFile(join(h, 'profiles.json.corrupt-2026-01-02T03-04-05-678Z'))).toEqual(Buffer.from(damage(good)))
    expect(reopened.messages.join('\n')).toMatch(/moved to .*corrupt-2026/)
    // The restored file is valid on disk again.
    expect(parseProfilesText(await readFile(join(h, 'profiles.json'), 'utf8')).kind).toBe('ok')
  })

  it('quarantines a corrupt file with no backup and says so (never a silent reset)', async () => {
    const h = await freshHome()
    await ProfileStore.open(h)
    await writeFile(join(h, 'profiles.json'), '{"version": 1, "profi')
    const store = await ProfileStore.open(h)
    expect(store.health).toBe('quarantined')
    expect(store.file.profiles).toEqual([])
    expect(store.messages[0]).toMatch(/could not be read .*truncated.*moved to/)
    expect((await readdir(h)).some((n) => n.startsWith('profiles.json.corrupt-'))).toBe(true)
  })

  it('opens a file from a newer schema version read-only and never writes it', async () => {
    const h = await freshHome()
    const store = await ProfileStore.open(h)
    await store.upsert(profile('a'))
    const text = (await readFile(join(h, 'profiles.json'), 'utf8')).replace(
      `"version": ${PROFILES_FILE_VERSION}`,
      `"version": ${PROFILES_FILE_VERSION + 1}`,
    )
    await writeFile(join(h, 'profiles.json'), text)
    const newer = await ProfileStore.open(h)
    expect(newer.health).toBe('read-only')
    expect(newer.find('a')).toBeDefined()
    expect(newer.messages[0]).toMatch(/newer Llama Tray.*read-only/)
    await expect(newer.upsert(profile('b'))).rejects.toThrow(ProfileStoreError)
    expect(await readFile(join(h, 'profiles.json'), 'utf8')).toBe(text)
  })

  it('retries a rename that fails with a transient Windows error', async () => {
    let calls = 0
    const flaky = async (): Promise<void> => {
      calls++
      if (calls < 3) throw Object.assign(new Error('busy'), { code: calls === 1 ? 'EBUSY' : 'EPERM' })
    }
    await renameWithRetry('a', 'b', 8, flaky)
    expect(calls).toBe(3)
    await expect(
      renameWithRetry('a', 'b', 8, async () => Promise.reject(Object.assign(new Error('gone'), { code: 'ENOENT' }))),
    ).rejects.toThrow('gone')
  })
})

describe('kill -9 while saving in a loop', () => {
  // Each iteration starts a process that saves in a loop and SIGKILLs it at a random
  // moment. 1,000 iterations take a few minutes on 2 busy cores: set
  // PROFILES_KILL_ITERATIONS=1000 for the full run; the default keeps the suite fast.
  const iterations = Number(process.env.PROFILES_KILL_ITERATIONS ?? 60)
  let child: string

  beforeAll(async () => {
    const out = join(scratch, 'child')
    await build({
      logLevel: 'silent',
      configFile: false,
      root: repoRoot,
      build: {
        ssr: join(repoRoot, 'test/support/profiles/save-loop-child.ts'),
        outDir: out,
        emptyOutDir: true,
        target: 'node20',
        rollupOptions: { output: { format: 'es', entryFileNames: 'child.mjs' } },
      },
      ssr: { noExternal: true },
    })
    child = join(out, 'child.mjs')
  }, 60_000)

  it(`the file is always the old or the new valid version (${iterations} kills)`, { timeout: 600_000 }, async () => {
    const h = await freshHome()
    let last = 0
    let killedMidRun = 0
    for (let i = 0; i < iterations; i++) {
      const proc = spawn(process.execPath, [child, h], { stdio: ['ignore', 'pipe', 'inherit'] })
      let acked = 0
      const firstSave = new Promise<void>((done) => {
        proc.stdout.on('data', (chunk: Buffer) => {
          const lines = chunk.toString().trim().split('\n')
          acked = Number(lines[lines.length - 1])
          done()
        })
        proc.on('exit', () => done())
      })
      await firstSave
      await new Promise((r) => setTimeout(r, Math.random() * 15))
      const exited = new Promise((r) => proc.on('exit', r))
      proc.kill('SIGKILL')
      await exited
      const parsed = parseProfilesText(await readFile(join(h, 'profiles.json'), 'utf8'))
      expect(parsed.kind, `iteration ${i}`).toBe('ok')
      if (parsed.kind !== 'ok') return
      const n = Number(parsed.file.profiles[0]?.notes.split(' ')[0])
      // Never older than a save the child reported done.
      expect(n).toBeGreaterThanOrEqual(Math.max(last, acked))
      if (n > acked) killedMidRun++
      last = n
      if (n > 1) {
        const bak = parseProfilesText(await readFile(join(h, 'profiles.json.bak'), 'utf8'))
        expect(bak.kind, `backup, iteration ${i}`).toBe('ok')
      }
    }
    // Leftover temp files of killed writers are cleaned up by the next open.
    const store = await ProfileStore.open(h)
    expect(store.health).toBe('ok')
    expect((await readdir(h)).filter((n) => n.endsWith('.tmp'))).toEqual([])
    console.log(
      `kill -9 test: ${iterations} kills, ${last} saves in all, ${killedMidRun} kills landed after a save the parent had not yet seen ` +
        `acknowledged`,
    )
  })
})
