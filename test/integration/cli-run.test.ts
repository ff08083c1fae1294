import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../../app/lib/command-line'
import { importArgv } from '../../app/profiles/import-command'
import { ProfileStore } from '../../app/profiles/store'
import { runCli, startCli } from '../helpers/cli'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { FAKE_SERVER, model } from '../helpers/paths'
import { isRunning, waitUntil } from '../helpers/processes'
import { snapshotSchema } from '../helpers/snapshot-schema'

let bin: string
const home = mkdtempSync(join(tmpdir(), 'llama-tray-cli-'))
const cmd = (...args: string[]): string =>
  formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1', '-t', '1', ...args])

beforeAll(() => {
  bin = llamaServerBin()
}, 900_000)
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('llama-tray run (the built CLI, the real llama-server)', () => {
  it('--json --duration 10 prints a valid Snapshot every second and leaves no process behind', async () => {
    const result = await runCli(['--home', home, 'run', '--cmd', cmd(), '--json', '--duration', '10'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const snapshots = result.stdout
      .trim()
      .split('\n')
      .map((line) => snapshotSchema.parse(JSON.parse(line)))
    // One tick a second until the 10 s deadline, then the final snapshot: at most 11 lines. A busy
    // machine may delay ticks (fewer lines) but never bunch them (each gap is at least the interval).
    expect(snapshots.length).toBeGreaterThanOrEqual(4)
    expect(snapshots.length).toBeLessThanOrEqual(11)
    const ticks = snapshots.slice(0, -1)
    const gaps = ticks.slice(1).map((s, i) => s.time - (ticks[i] as { time: number }).time)
    for (const gap of gaps) expect(gap).toBeGreaterThan(800)
    const states = ticks.map((s) => s.server.state)
    // Loading the tiny model takes ~0.3 s on an idle machine; a busy one may take seconds.
    expect(states.filter((s) => s === 'ready').length, states.join(' ')).toBeGreaterThanOrEqual(1)
    expect(
      states.slice(states.indexOf('ready')).every((s) => s === 'ready'),
      states.join(' '),
    ).toBe(true)
    const pid = ticks.find((s) => s.server.pid)?.server.pid as number
    expect(pid).toBeGreaterThan(0)
    expect(isRunning(pid)).toBe(false)
    expect(snapshots.at(-1)?.server.state).toBe('stopped')
    expect(snapshots.at(-1)?.server.lastExit?.code).toBe(0)
  }, 120_000)

  it('SIGINT stops the server cleanly and exits 0', async () => {
    const cli = startCli(['--home', home, 'run', '--cmd', cmd(), '--json', '--interval', '100'])
    await waitUntil(() => cli.stdoutLines.some((l) => l.includes('"state":"ready"')), 60_000, 'ready')
    const pid = (JSON.parse(cli.stdoutLines.find((l) => l.includes('"state":"ready"')) as string) as { server: { pid: number } }).server.pid
    cli.child.kill('SIGINT')
    const result = await cli.done
    expect(result.code).toBe(0)
    expect(isRunning(pid)).toBe(false)
  }, 120_000)

  it('a server that fails (removed flag) prints the reason and hint on one line and exits 1', async () => {
    const result = await runCli(['--home', home, 'run', '--cmd', cmd('--no-mmap')])
    expect(result.code).toBe(1)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toMatch(/does not accept --no-mmap.*\. Use --load-mode none/)
  }, 120_000)

  it.each([
    ['a missing binary', () => ['--cmd', '/nonexistent/llama-server -m x.gguf'], /binary llama-server was not found/],
    [
      'a missing model',
      () => ['--cmd', formatCommandLine([bin, '-m', '/nonexistent/model.gguf'])],
      /model file model\.gguf does not exist/,
    ],
    ['a shell operator', () => ['--cmd', `${bin} -m a.gguf && rm -rf /`], /shell operator/],
    ['an unterminated quote', () => ['--cmd', `${bin} -m "a.gguf`], /unterminated/],
    ['no --cmd', () => [], /needs a profile or --cmd/],
    ['an unknown option', () => ['--cmd', 'x', '--bogus'], /bogus/],
  ])(
    '%s is a one-line error with exit code 2',
    async (_name, args, message) => {
      const result = await runCli(['--home', home, 'run', ...args()])
      expect(result.code).toBe(2)
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
      expect(result.stderr).toMatch(message)
      expect(result.stderr).not.toMatch(/\n\s+at /)
    },
    120_000,
  )

  it('a llama-server orphaned by a killed CLI is stopped by the next start in the same home', async () => {
    const orphanHome = mkdtempSync(join(tmpdir(), 'llama-tray-orphan-'))
    // A server without the child channel (the real one exits with us: cli-run-channel.test.ts): the pid file is what finds it.
    // The fake server stands for it (a fork's wrapper script would change its process name at its exec).
    const orphanCmd = formatCommandLine([FAKE_SERVER, '-m', model('tiny-target.gguf')])
    const cli = startCli(['--home', orphanHome, 'run', '--cmd', orphanCmd, '--json', '--interval', '100'])
    await waitUntil(() => cli.stdoutLines.some((l) => l.includes('"state":"ready"')), 60_000, 'ready')
    const pid = (JSON.parse(cli.stdoutLines.find((l) => l.includes('"state":"ready"')) as string) as { server: { pid: number } }).server.pid
    cli.child.kill('SIGKILL') // our own process dies without stopping its server
    await cli.done
    await new Promise((r) => setTimeout(r, 300))
    expect(isRunning(pid)).toBe(true)
    const next = await runCli(['--home', orphanHome, 'run', '--cmd', cmd(), '--json', '--duration', '1'])
    expect(next.code).toBe(0)
    expect(isRunning(pid)).toBe(false)
    rmSync(orphanHome, { recursive: true, force: true })
  }, 120_000)
})

describe('llama-tray run <profile>', () => {
  it('refuses a stored profile whose flags this binary rejects, names the replacement, and runs it once fixed', async () => {
    const profileHome = mkdtempSync(join(tmpdir(), 'llama-tray-profile-run-'))
    // Stored as an older Llama Tray did, without the gate (an import now writes -lm none at once).
    const store = await ProfileStore.open(profileHome)
    await store.upsert(importArgv([bin, '-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1', '--no-mmap'], { name: 'seedlike' }))
    const refused = await runCli(['--home', profileHome, 'run', 'seedlike', '--duration', '1'])
    expect(refused.code).toBe(2)
    // One sentence naming the engine by its file name, not its path (the path is in the --verbose details); then the fix.
    expect(refused.stderr).toMatch(
      /^llama-tray: Profile "seedlike" has a flag that llama-server \(mainline [^)]*\) rejects: --no-mmap \(use -lm none\)\.\n/,
    )
    expect(refused.stderr).not.toContain(bin)
    expect(refused.stderr).toMatch(/To fix it: llama-tray profiles fix seedlike/)
    const verbose = await runCli(['--home', profileHome, '--verbose', 'run', 'seedlike', '--duration', '1'])
    expect(verbose.stderr).toContain(`binary: ${bin}`)
    expect((await runCli(['--home', profileHome, 'profiles', 'fix', 'seedlike'])).code).toBe(0)
    // -lm none loads the weights into RAM (and repacks them): slower than mmap on a busy machine.
    const ran = startCli(['--home', profileHome, 'run', 'seedlike', '--json', '--interval', '200'])
    await waitUntil(() => ran.stdoutLines.some((l) => l.includes('"state":"ready"')), 120_000, 'the fixed profile to be ready')
    const ready = snapshotSchema.parse(JSON.parse(ran.stdoutLines.find((l) => l.includes('"state":"ready"')) as string)).server
    expect(ready.profileId).toBe('seedlike')
    ran.child.kill('SIGTERM')
    expect((await ran.done).code).toBe(0)
    expect(isRunning(ready.pid as number)).toBe(false)
    rmSync(profileHome, { recursive: true, force: true })
  }, 180_000)

  it('an unknown profile is a usage error', async () => {
    const result = await runCli(['--home', home, 'run', 'no-such-profile'])
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(/No profile "no-such-profile"/)
  })
})
