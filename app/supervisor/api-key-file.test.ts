import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { FAKE_SERVER } from '../../test/helpers/paths'
import { SupervisorHarness } from '../../test/helpers/supervisor-harness'
import { everyForkTakesKeyFile, hideApiKeys, keyFilePath, removeStaleKeyFiles } from './api-key-file'
import { runningProcess } from '../../test/helpers/server-status'

/** The command line every local user can read (ps); Linux's /proc. */
const commandLine = (pid: number): string[] => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
const KEY = 'secret-key-123'

describe("a profile's --api-key stays out of the process list (the fake server)", () => {
  let harness: SupervisorHarness | null = null
  afterEach(async () => {
    await harness?.dispose()
    harness = null
  })

  it('passes the keys in a 0600 file under <home>/run and removes it on stop', async () => {
    harness = new SupervisorHarness()
    const status = await harness.supervisor.start({
      profileId: 'k',
      exe: FAKE_SERVER,
      args: ['--api-key', `${KEY},second-key-456`, '-c', '512'],
    })
    expect(status.state).toBe('ready')
    const argv = commandLine(runningProcess(status).pid)
    expect(argv.join(' ')).not.toContain(KEY)
    const file = keyFilePath(join(harness.home, 'run'))
    expect(argv.slice(-2)).toEqual(['--api-key-file', file])
    expect(argv).toContain('-c') // the rest of the profile is passed as it was
    expect(readFileSync(file, 'utf8')).toBe(`${KEY}\nsecond-key-456\n`)
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(harness.supervisor.getLogs().join('\n')).not.toContain(KEY)
    expect(harness.supervisor.getLaunchSpec()?.args).toContain(`${KEY},second-key-456`) // the app's own requests still find the key

    await harness.supervisor.stop()
    expect(existsSync(file)).toBe(false)
  })

  it('writes the file again for a restart after a crash, and removes it when the run ends', async () => {
    harness = new SupervisorHarness({ restartPolicy: { initialDelayMs: 10, maxDelayMs: 10, stableAfterMs: 60_000, maxUnstableExits: 2 } })
    const file = keyFilePath(join(harness.home, 'run'))
    const seen: boolean[] = []
    harness.supervisor.on('state', (s) => {
      if (s.state === 'ready') seen.push(existsSync(file))
    })
    await harness.supervisor.start({
      profileId: 'k',
      exe: FAKE_SERVER,
      args: ['--api-key', KEY, '--fake-mode', 'crash-after', '--fake-crash-ms', '50'],
    })
    await harness.waitFor('crashloop')
    expect(seen.length).toBeGreaterThanOrEqual(2)
    expect(seen.every(Boolean)).toBe(true)
    expect(existsSync(file)).toBe(false)
  })
})

describe('moving the keys (pure, with a temp run folder)', () => {
  const runDir = mkdtempSync(join(tmpdir(), 'key-file-'))
  afterAll(() => rmSync(runDir, { recursive: true, force: true }))

  it('takes every spelling and use, and leaves arguments without a key alone', async () => {
    const moved = await hideApiKeys(['-m', 'x.gguf', `--api-key=${KEY}`, '--api-key', 'other-key-789', '--port', '0'], runDir)
    expect(moved.ok && moved.args).toEqual(['-m', 'x.gguf', '--port', '0', '--api-key-file', keyFilePath(runDir)])
    expect(readFileSync(keyFilePath(runDir), 'utf8')).toBe(`${KEY}\nother-key-789\n`)
    expect(await hideApiKeys(['-m', 'x.gguf'], runDir)).toEqual({ ok: true, args: ['-m', 'x.gguf'], file: null })
  })

  it('never leaves a key on the command line: one the key file cannot carry is refused in one sentence', async () => {
    expect(await hideApiKeys(['--api-key', '#hash-key-1'], runDir)).toEqual({
      ok: false,
      problem: {
        reason: "a key in --api-key starts with #, read as a comment in llama-server's key file",
        hint: 'start it with another character',
      },
    })
    const quoted = await hideApiKeys(['--api-key', '"a,quoted-key",other-key-1'], runDir)
    expect(quoted.ok ? quoted.args : quoted.problem.reason).toBe(
      'a key in --api-key holds a quote, which llama-server versions read differently',
    )
    const broken = await hideApiKeys(['--api-key', 'longgoodkey123\nab'], runDir)
    expect(broken.ok).toBe(false)
  })

  it('refuses to start rather than fall back to the command line when the key file cannot be written', async () => {
    const notAFolder = join(runDir, 'a-file')
    writeFileSync(notAFolder, 'x')
    const result = await hideApiKeys(['--api-key', KEY], join(notAFolder, 'run'))
    expect(result.ok ? result.args : result.problem.reason).toMatch(/^the API key could not be written to its private file \(E/)
  })

  it('is made because all three engines take --api-key-file (their --help in test/fixtures)', () => {
    expect(everyForkTakesKeyFile()).toBe(true)
  })

  it('removes key files of supervisors that are gone, not of live ones', async () => {
    const dead = join(runDir, 'api-key.999999.txt')
    const live = join(runDir, 'api-key.1.txt')
    const other = join(runDir, 'notes.txt')
    for (const f of [dead, live, other]) writeFileSync(f, 'x')
    await removeStaleKeyFiles(runDir, (pid) => pid === 1)
    expect([existsSync(dead), existsSync(live), existsSync(other)]).toEqual([false, true, true])
  })
})
