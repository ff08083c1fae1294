import { readFileSync } from 'node:fs'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { LaunchSpec } from '../../app/contract/commands'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { runningProcess } from '../helpers/server-status'
import { SupervisorHarness } from '../helpers/supervisor-harness'

// Issue #42: "a key with # or a quote still goes on the command line" (every local user reads it with ps). Every key
// now goes through the 0600 key file; one the file cannot carry is refused before anything is spawned.
// The real llama-server: /proc/<pid>/cmdline of every process it ran as never holds the key.

let bin: string
const harnesses: SupervisorHarness[] = []
const commandLine = (pid: number): string => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ')
const spec = (key: string): LaunchSpec => ({
  profileId: 'keyed',
  exe: bin,
  args: ['-m', model('tiny-target.gguf'), '-c', '512', '-np', '1', '-t', '1', '--api-key', key],
})

beforeAll(() => {
  bin = llamaServerBin()
}, 900_000)

afterEach(async () => {
  for (const h of harnesses.splice(0)) {
    await h.dispose()
    expect(h.pids.alive(), 'llama-server processes left behind').toEqual([])
  }
})

function harness(): SupervisorHarness {
  const h = new SupervisorHarness()
  harnesses.push(h)
  return h
}

describe('an API key never reaches a command line (the real llama-server)', () => {
  it.each([
    ['a # inside', 'good#key-1234'],
    ['spaces and shell characters', "a b;c$d'e-1234"],
  ])('a key with %s goes through the key file: the server takes it, its command line never shows it', async (_what, key) => {
    const h = harness()
    const ready = await h.supervisor.start(spec(key))
    expect(ready.state).toBe('ready')
    const { pid, port } = runningProcess(ready)
    expect(commandLine(pid)).not.toContain(key)
    expect(commandLine(pid)).toContain('--api-key-file')
    const ask = (k: string): Promise<number> =>
      fetch(`http://127.0.0.1:${port}/v1/models`, { headers: { authorization: `Bearer ${k}` } }).then((r) => r.status)
    expect(await ask(key)).toBe(200)
    expect(await ask('wrong-key-1234')).toBe(401)
  })

  it.each([
    ['starts with #', '#hash-key-1234', "a key in --api-key starts with #, read as a comment in llama-server's key file"],
    ['holds a quote', 'quo"te-key-1234', 'a key in --api-key holds a quote, which llama-server versions read differently'],
  ])('a key that %s cannot go in the key file: refused in one sentence, nothing spawned', async (_what, key, reason) => {
    const h = harness()
    const failed = await h.supervisor.start(spec(key))
    expect(failed.state).toBe('errored')
    expect(failed.lastExit?.reason).toBe(reason)
    expect(h.pids.alive()).toEqual([])
    expect(h.states).not.toContain('loading')
  })
})
