import { describe, expect, it } from 'vitest'
import { UsageError } from '../cli-error'
import { parseRunArgs, runCadence, WATCHED_INTERVAL_MS } from './run'

describe('parseRunArgs', () => {
  it('splits the pasted command into the binary and its arguments', () => {
    const o = parseRunArgs([
      '--cmd',
      'C:\\llama\\llama-server.exe -m "D:\\models\\qwen 35b.gguf" ^\n --n-cpu-moe 34',
      '--json',
      '--interval',
      '500',
    ])
    expect(o.source).toEqual({
      kind: 'cmd',
      spec: { profileId: 'cli', exe: 'C:\\llama\\llama-server.exe', args: ['-m', 'D:\\models\\qwen 35b.gguf', '--n-cpu-moe', '34'] },
    })
    expect(o).toMatchObject({ json: true, intervalMs: 500, durationS: null, readyTimeoutS: 120 })
  })

  it('takes a profile name instead of --cmd', () => {
    expect(parseRunArgs(['qwen-4060', '--json']).source).toEqual({ kind: 'profile', idOrName: 'qwen-4060' })
  })

  it.each([
    [['--cmd', ''], /needs a profile or --cmd/],
    [['--cmd', 'llama-server | tee log'], /shell operator/],
    [['--cmd', 'llama-server --api-key $KEY'], /shell variable/],
    [['--cmd', 'x', '--interval', '0'], 'The option --interval takes a number of milliseconds above 0, like 1000; "0" is not one.'],
    [['a', 'b'], 'Unexpected argument "b"; run takes one profile, or --cmd "<llama-server command line>".'],
    [['--cmd', 'llama-server -m "a.gguf'], 'The --cmd command line cannot be read: unterminated " quote.'],
    [['a', '--cmd', 'llama-server'], /not both/],
  ])('%j is a usage error', (args, message) => {
    expect(() => parseRunArgs(args)).toThrow(UsageError)
    expect(() => parseRunArgs(args)).toThrow(message)
  })
})

describe('runCadence', () => {
  it('keeps a fixed cadence where every snapshot is shown, the idle pace where only changes are printed', () => {
    const text = parseRunArgs(['--cmd', 'llama-server -m a.gguf'])
    expect(text.intervalMs).toBeNull()
    expect(runCadence(text, false)).toEqual({})
    expect(runCadence(text, true)).toEqual({ cadenceMs: WATCHED_INTERVAL_MS })
    expect(runCadence(parseRunArgs(['--cmd', 'llama-server -m a.gguf', '--json']), false)).toEqual({ cadenceMs: WATCHED_INTERVAL_MS })
    expect(runCadence(parseRunArgs(['--cmd', 'llama-server -m a.gguf', '--interval', '250']), false)).toEqual({ cadenceMs: 250 })
  })
})
