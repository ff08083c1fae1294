import { EventEmitter } from 'node:events'
import { PassThrough } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Snapshot } from '../../contract/snapshot'
import type { CliContext } from '../command'
import { ScriptedCliCore } from '../../../test/support/cli/scripted-cli-core'
import { runCommand } from './run'

function context(core: ScriptedCliCore, isTTY = false): { io: CliContext; lines: () => string[]; raw: () => string; signals: EventEmitter } {
  const stdout = Object.assign(new PassThrough(), { isTTY })
  let out = ''
  stdout.setEncoding('utf8').on('data', (c: string) => (out += c))
  const signals = new EventEmitter()
  const io: CliContext = { home: '/nonexistent-home', stdout, stderr: new PassThrough(), signals, createCore: core.factory }
  return { io, lines: () => out.split('\n').filter(Boolean), raw: () => out, signals }
}

const CMD = ['--cmd', 'llama-server -m model.gguf', '--interval', '100']

describe('llama-tray run renders on the core\'s events (it keeps no clock of its own)', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'Date'] }))
  afterEach(() => void vi.useRealTimers())

  it('--json prints exactly the snapshots the core publishes, however long nothing is published', async () => {
    const core = new ScriptedCliCore()
    const { io, lines, signals } = context(core)
    const exit = runCommand.run([...CMD, '--json'], io)
    await vi.advanceTimersByTimeAsync(0)
    core.setState({ state: 'ready', profileId: 'cli', pid: 42, host: '127.0.0.1', port: 8080, readySince: Date.now() })
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
    core.setState({ state: 'ready', profileId: 'cli', pid: 42, host: '127.0.0.1', port: 8080, readySince: Date.now() })
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
    core.setState({ state: 'starting', profileId: 'cli' })
    core.setState({ state: 'ready', pid: 42, host: '127.0.0.1', port: 8080, readySince: Date.now() })
    await vi.advanceTimersByTimeAsync(10_000)
    core.tick(Date.now())
    expect(lines()).toHaveLength(2)
    expect(lines()[0]).toMatch(/^STARTING/)
    expect(lines()[1]).toMatch(/^READY/)
    signals.emit('SIGINT')
    expect(await exit).toBe(0)
    expect(lines().at(-1)).toMatch(/^STOPPED/)
  })
})
