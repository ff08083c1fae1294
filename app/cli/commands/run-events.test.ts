import { EventEmitter } from 'node:events'
import { PassThrough } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ServerStatus } from '../../contract/server-state'
import type { Snapshot } from '../../contract/snapshot'
import type { CliContext } from '../command'
import { ScriptedCliCore } from '../../../test/support/cli/scripted-cli-core'
import { serverStatus } from '../../../test/helpers/server-status'
import { runCommand } from './run'

/** The scripted core runs no server: the home (a path that does not exist) is never taken. */
const lockHome = async () => ({ setPort: async () => {}, release: async () => {} })

const READY = (): ServerStatus => serverStatus('ready', { profileId: 'cli', pid: 42, port: 8080, readySince: Date.now() })

function context(
  core: ScriptedCliCore,
  isTTY = false,
  columns?: number,
): { io: CliContext; lines: () => string[]; raw: () => string; signals: EventEmitter } {
  const stdout = Object.assign(new PassThrough(), { isTTY, columns })
  let out = ''
  stdout.setEncoding('utf8').on('data', (c: string) => (out += c))
  const signals = new EventEmitter()
  const io: CliContext = { home: '/nonexistent-home', stdout, stderr: new PassThrough(), signals, createCore: core.factory, lockHome }
  return { io, lines: () => out.split('\n').filter(Boolean), raw: () => out, signals }
}

const CMD = ['--cmd', 'llama-server -m model.gguf', '--interval', '100']

describe("llama-tray run renders on the core's events (it keeps no clock of its own)", () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'Date'] }))
  afterEach(() => void vi.useRealTimers())

  it('--json prints exactly the snapshots the core publishes, however long nothing is published', async () => {
    const core = new ScriptedCliCore()
    const { io, lines, signals } = context(core)
    const exit = runCommand.run([...CMD, '--json'], io)
    await vi.advanceTimersByTimeAsync(0)
    core.setState(READY())
    // 100 intervals of --interval pass without a tick of the core: nothing is printed.
    await vi.advanceTimersByTimeAsync(10_000)
    expect(lines()).toEqual([])
    const published: Snapshot[] = [core.tick(1000), core.tick(2000), core.tick(3000)]
    expect(lines().map((l) => JSON.parse(l))).toEqual(published)
    signals.emit('SIGINT')
    expect(await exit).toBe(0)
    expect(core.disposed).toBe(true)
    // After the three ticks, only the final snapshot of the stopped server.
    expect(lines()).toHaveLength(4)
    expect(JSON.parse(lines()[3] as string).server.state).toBe('stopped')
    expect(core.started).toEqual([{ profileId: 'cli', exe: 'llama-server', args: ['-m', 'model.gguf'] }])
  })

  it('on a terminal, redraws the status line on each snapshot and on nothing else', async () => {
    const core = new ScriptedCliCore()
    const { io, raw, signals } = context(core, true)
    const exit = runCommand.run(CMD, io)
    await vi.advanceTimersByTimeAsync(0)
    core.setState(READY())
    await vi.advanceTimersByTimeAsync(10_000)
    const redraws = (): number => raw().split('\r\x1b[2K').length - 1
    expect(redraws()).toBe(0)
    core.tick(Date.now())
    core.tick(Date.now() + 1000)
    expect(redraws()).toBe(2)
    expect(raw()).toContain('READY')
    signals.emit('SIGTERM')
    expect(await exit).toBe(0)
  })

  it('without a terminal or --json, prints one line per state change of the core', async () => {
    const core = new ScriptedCliCore()
    const { io, lines, signals } = context(core)
    const exit = runCommand.run(CMD, io)
    await vi.advanceTimersByTimeAsync(0)
    core.setState(serverStatus('starting', { profileId: 'cli', pid: null, host: null, port: null }))
    core.setState(READY())
    await vi.advanceTimersByTimeAsync(10_000)
    core.tick(Date.now())
    expect(lines()).toHaveLength(2)
    expect(lines()[0]).toMatch(/^STARTING/)
    expect(lines()[1]).toMatch(/^READY/)
    signals.emit('SIGINT')
    expect(await exit).toBe(0)
    expect(lines().at(-1)).toMatch(/^STOPPED/)
  })

  const WARNING = {
    id: 'live.vram-low@cli',
    level: 'warn' as const,
    fix: null,
    headline: 'Free VRAM is 310 MiB, under the 1,536 MiB headroom.',
    reason: `Close ${'other GPU programs, '.repeat(20)}or lower --n-cpu-moe.`,
  }
  /** The CLI's warning is its headline; where its reason is, once per run (the reason itself with --verbose). */
  const LINE = WARNING.headline
  const WHY = '  Why: llama-tray lint <profile> shows each warning with its reason and fix, or run with --verbose.'
  const RESTARTING = serverStatus('crashloop', {
    profileId: 'cli',
    lastExit: {
      code: 1,
      signal: null,
      reason: `llama-server exited: ${'x'.repeat(1500)}`,
      hint: null,
      kind: 'crashed' as const,
      problem: null,
    },
  })

  it.each([80, 40, undefined])(
    'on a terminal of %s columns, each redraw fits one row and a warning is printed once, above it',
    async (columns) => {
      const core = new ScriptedCliCore()
      const { io, raw, signals } = context(core, true, columns)
      const exit = runCommand.run(CMD, io)
      await vi.advanceTimersByTimeAsync(0)
      core.setState(READY())
      core.warnings = [WARNING]
      for (let i = 0; i < 5; i++) core.tick(Date.now() + i * 1000)
      core.warnings = []
      core.tick(Date.now() + 6000)
      core.status = RESTARTING
      core.tick(Date.now() + 7000)
      const chunks = raw().split('\r\x1b[2K').slice(1)
      const rows = chunks.filter((c) => !c.endsWith('\n'))
      expect(rows).toHaveLength(7)
      for (const row of rows) expect(Array.from(row).length).toBeLessThanOrEqual((columns ?? 80) - 1)
      expect(rows.at(-1)?.endsWith('…')).toBe(true)
      expect(chunks.filter((c) => c === `! ${LINE}\n`)).toHaveLength(1)
      expect(chunks.filter((c) => c === `${WHY}\n`)).toHaveLength(1)
      expect(chunks.filter((c) => c === `Cleared: ${LINE}\n`)).toHaveLength(1)
      expect(rows.some((r) => r.includes('!'))).toBe(false)
      signals.emit('SIGINT')
      expect(await exit).toBe(0)
    },
  )

  it('without a terminal, prints a warning when it appears and when it clears, and nothing while it stays', async () => {
    const core = new ScriptedCliCore()
    const { io, lines, signals } = context(core)
    const exit = runCommand.run(CMD, io)
    await vi.advanceTimersByTimeAsync(0)
    core.setState(READY())
    core.warnings = [WARNING]
    for (let i = 0; i < 5; i++) core.tick(Date.now() + i * 1000)
    core.warnings = []
    for (let i = 0; i < 3; i++) core.tick(Date.now() + 6000 + i * 1000)
    expect(lines()).toEqual([expect.stringMatching(/^READY/), `! ${LINE}`, WHY, `Cleared: ${LINE}`])
    signals.emit('SIGINT')
    expect(await exit).toBe(0)
  })

  it('on a terminal, a line on stderr never lands on the status row: the row is erased first', async () => {
    const core = new ScriptedCliCore()
    // One terminal: both streams write into the same screen, in order.
    let screen = ''
    const stdout = Object.assign(new PassThrough(), { isTTY: true, columns: 80 })
    const stderr = new PassThrough()
    stdout.setEncoding('utf8').on('data', (c: string) => (screen += c))
    stderr.setEncoding('utf8').on('data', (c: string) => (screen += c))
    const signals = new EventEmitter()
    const exit = runCommand.run(CMD, { home: '/nonexistent-home', stdout, stderr, signals, createCore: core.factory, lockHome })
    await vi.advanceTimersByTimeAsync(0)
    core.setState(serverStatus('loading', { profileId: 'cli', pid: 42, port: 8080 }))
    core.tick(Date.now())
    core.setState(READY())
    await vi.advanceTimersByTimeAsync(0)
    expect(screen).toContain(
      'LOADING    pid 42  http://127.0.0.1:8080\r\x1b[2Kllama-tray: The OpenAI-compatible API is at http://127.0.0.1:8080/v1.\n',
    )
    signals.emit('SIGINT')
    expect(await exit).toBe(0)
  })
})
