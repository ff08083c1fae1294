import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { HomeInUseError, HomeLock } from './home-lock'

let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'llama-tray-home-lock-'))
  mkdirSync(join(home, 'run'))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

const lockFile = (): string => join(home, 'run', 'instance.json')

describe('the home lock (one app, serve or run per home)', () => {
  it('two starting at once: one wins, the other is refused naming it', async () => {
    const results = await Promise.allSettled([HomeLock.acquire(home, 'serve'), HomeLock.acquire(home, 'run')])
    const won = results.filter((r) => r.status === 'fulfilled')
    const lost = results.filter((r) => r.status === 'rejected')
    expect(won).toHaveLength(1)
    expect(lost).toHaveLength(1)
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(HomeInUseError)
    await (won[0] as PromiseFulfilledResult<HomeLock>).value.release()
    expect(existsSync(lockFile())).toBe(false)
  })

  it('a live process of another program holding a reused pid is not the holder: its record is taken over', async () => {
    // A live process (this test's sleeper), recorded with another start time: the holder died and its pid was reused.
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'])
    try {
      const identity = { name: 'node', startToken: 'another-start' }
      writeFileSync(lockFile(), JSON.stringify({ pid: sleeper.pid, kind: 'serve', port: 8080, identity, since: 0 }))
      const lock = await HomeLock.acquire(home, 'app')
      expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid, kind: 'app' })
      await lock.release()
    } finally {
      sleeper.kill('SIGKILL')
    }
  })

  it('a live holder with its own identity is refused in one sentence naming it (pid, port)', async () => {
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'])
    try {
      writeFileSync(lockFile(), JSON.stringify({ pid: sleeper.pid, kind: 'run', port: 41234, identity: null, since: 0 }))
      const refused = await HomeLock.acquire(home, 'serve').catch((err: unknown) => err)
      expect(refused).toBeInstanceOf(HomeInUseError)
      expect((refused as Error).message).toBe(
        `This home is in use by llama-tray run (pid ${sleeper.pid}, port 41234): stop it first (Ctrl+C where it runs).`,
      )
    } finally {
      sleeper.kill('SIGKILL')
    }
  })

  it("a dead holder's record and the serve records of dead processes go at the next start", async () => {
    const gone = spawn(process.execPath, ['-e', '0'])
    await new Promise((r) => gone.on('exit', r))
    writeFileSync(lockFile(), JSON.stringify({ pid: gone.pid, kind: 'serve', port: 8080, identity: null, since: 0 }))
    writeFileSync(join(home, 'run', `serve.${gone.pid}.json`), '{}')
    const lock = await HomeLock.acquire(home, 'serve')
    expect(existsSync(join(home, 'run', `serve.${gone.pid}.json`))).toBe(false)
    await lock.setPort(9999)
    expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid, kind: 'serve', port: 9999 })
    await lock.release()
  })
})
