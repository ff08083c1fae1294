import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importArgv } from '../../app/profiles/import-command'
import { ProfileStore } from '../../app/profiles/store'
import { findFreePort } from '../../app/supervisor/free-port'
import { runCli, startCli } from '../helpers/cli'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { isRunning, waitUntil } from '../helpers/processes'

// Issue #42 (Medium 7): two serves and a run on one home each started their own llama-server for the same profile.
// One app, serve or run holds a home now; the built CLI, real processes, the real llama-server.

type Line = { event?: string; server?: { state: string; port: number | null; pid: number | null } }
const lines = (out: string[]): Line[] => out.flatMap((l) => (l.startsWith('{') ? [JSON.parse(l) as Line] : []))

/** A pid no process has now: a node that already exited. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '0']).pid
  if (pid === undefined || isRunning(pid)) throw new Error('no dead pid to use')
  return pid
}

describe('one instance per home (the built CLI, the real llama-server)', () => {
  let home: string

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'llama-tray-one-home-'))
    const store = await ProfileStore.open(home)
    const argv = [llamaServerBin(), '-m', model('tiny-target.gguf'), '-c', '512', '-np', '1', '-t', '1']
    await store.upsert(importArgv(argv, { name: 'alpha' }))
  }, 900_000)
  afterAll(() => rmSync(home, { recursive: true, force: true }))

  it('a second serve and a run are refused naming the first (pid, port); after a kill -9 a new serve takes the home', async () => {
    // A stale record of a serve that died without cleaning up: removed when the next one starts.
    mkdirSync(join(home, 'run'), { recursive: true })
    const stale = join(home, 'run', `serve.${deadPid()}.json`)
    writeFileSync(stale, JSON.stringify({ pid: 1, origin: 'http://127.0.0.1:1', apiKeyFile: null }))

    const port = await findFreePort()
    const first = startCli(['--home', home, 'serve', '--port', String(port), '--json'])
    const firstPid = first.child.pid!
    try {
      await waitUntil(() => lines(first.stdoutLines).some((e) => e.event === 'listening'), 60_000, 'the first serve to listen')
      expect(existsSync(stale), 'the stale serve record').toBe(false)

      const said = `llama-tray: This home is in use by llama-tray serve (pid ${firstPid}, port ${port}): stop it first`
      const second = await runCli(['--home', home, 'serve', '--port', String(await findFreePort()), '--json'])
      expect(second.code, second.stderr).toBe(1)
      expect(second.stdout).toBe('') // never listened
      expect(second.stderr).toContain(said)
      expect(second.stderr.trim().split('\n')).toHaveLength(1)

      const run = await runCli(['--home', home, 'run', 'alpha', '--json', '--duration', '30'])
      expect(run.code, run.stderr).toBe(1)
      expect(run.stdout).toBe('') // no snapshot: nothing started
      expect(run.stderr).toContain(said)
    } finally {
      first.child.kill('SIGKILL')
    }
    await first.done

    // The killed holder left its lock and its record: the next serve takes both over.
    const port2 = await findFreePort()
    const next = startCli(['--home', home, 'serve', '--port', String(port2), '--json'])
    try {
      await waitUntil(() => lines(next.stdoutLines).some((e) => e.event === 'listening'), 60_000, 'the serve after the kill -9')
      expect(existsSync(join(home, 'run', `serve.${firstPid}.json`)), "the killed serve's record").toBe(false)
    } finally {
      next.child.kill('SIGINT')
    }
    const ended = await next.done
    expect(ended.code, ended.stderr).toBe(0)
    expect(existsSync(join(home, 'run', 'instance.json')), 'the lock, given back').toBe(false)
  }, 180_000)

  it('a run holds the home too: serve is refused naming the run and its llama-server port', async () => {
    const run = startCli(['--home', home, 'run', 'alpha', '--json'])
    let serverPid: number | null = null
    try {
      await waitUntil(() => lines(run.stdoutLines).some((e) => e.server?.state === 'ready'), 120_000, 'the run to be ready')
      const ready = lines(run.stdoutLines).find((e) => e.server?.state === 'ready')!.server!
      serverPid = ready.pid
      const said = `llama-tray: This home is in use by llama-tray run (pid ${run.child.pid}, port ${ready.port}): stop it first`
      // The port is named once the run records it, right after ready.
      let serve = await runCli(['--home', home, 'serve', '--port', String(await findFreePort())])
      for (let i = 0; i < 50 && !serve.stderr.includes(said); i++)
        serve = await runCli(['--home', home, 'serve', '--port', String(await findFreePort())])
      expect(serve.code, serve.stderr).toBe(1)
      expect(serve.stderr).toContain(said)
      // profiles use has no endpoint to switch through: it says that the run keeps its profile, not that none runs.
      const use = await runCli(['--home', home, 'profiles', 'use', 'alpha'])
      expect(use.code, use.stderr).toBe(0)
      expect(use.stdout).toBe(
        `Profile "alpha" is now the active profile for the next start; llama-tray run (pid ${run.child.pid}, port ${ready.port}) ` +
          'keeps its own until it stops.\n',
      )
    } finally {
      run.child.kill('SIGINT')
    }
    const ended = await run.done
    expect(ended.code, ended.stderr).toBe(0)
    if (serverPid !== null) expect(isRunning(serverPid), 'llama-server of the run').toBe(false)
  }, 240_000)
})
