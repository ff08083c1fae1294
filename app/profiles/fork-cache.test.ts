import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FIXTURES } from '../../test/helpers/paths'
import { detectFork, forkCacheStore, FORK_CACHE_FILE } from './fork-detect'

const homes: string[] = []
const home = (): string => {
  const h = mkdtempSync(join(tmpdir(), 'llama-tray-fork-cache-'))
  homes.push(h)
  return h
}
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true })
})

const HELP = readFileSync(join(FIXTURES, 'llama-server/responses/llama-server-help.txt'), 'utf8')
const VERSION = readFileSync(join(FIXTURES, 'llama-server/responses/version.txt'), 'utf8')

/** A stand-in binary (detectFork only stats it; the runner below answers for it), and a runner that counts its runs. */
function binaryIn(dir: string, name: string): string {
  const path = join(dir, name)
  writeFileSync(path, name)
  return path
}
function countingRunner(): { runs: () => number; run: (binary: string, args: readonly string[]) => Promise<string> } {
  let n = 0
  return { runs: () => n, run: async (_b, args) => (n++, args[0] === '--help' ? HELP : VERSION) }
}

describe("engines.json (the cache of each binary's fork and flags)", () => {
  it('serves a binary from a file written by earlier versions without running it', async () => {
    const h = home()
    const binary = binaryIn(h, 'llama-server')
    const { size, mtimeMs } = statSync(binary)
    const entry = {
      size,
      mtimeMs,
      kind: 'ik_llama',
      version: '4000 (abc)',
      commit: 'abc',
      flags: ['--fmoe', '--port'],
      cacheTypes: ['q8_0'],
    }
    writeFileSync(join(h, FORK_CACHE_FILE), `${JSON.stringify({ version: 1, binaries: { [binary]: entry } }, null, 2)}\n`)
    const runner = countingRunner()
    const binaryInfo = await detectFork(h, binary, runner.run)
    expect(runner.runs()).toBe(0)
    expect(binaryInfo).toMatchObject({ fork: 'ik_llama', version: '4000 (abc)', commit: 'abc', cacheTypes: ['q8_0'] })
    expect([...binaryInfo.flags]).toEqual(['--fmoe', '--port'])
  })

  it('writes the fork under its own key and serves it again without running the binary', async () => {
    const h = home()
    const binary = binaryIn(h, 'llama-server')
    const runner = countingRunner()
    expect((await detectFork(h, binary, runner.run)).fork).toBe('mainline')
    const entry = JSON.parse(readFileSync(join(h, FORK_CACHE_FILE), 'utf8')).binaries[binary] as Record<string, unknown>
    expect([entry.fork, 'kind' in entry]).toEqual(['mainline', false])
    expect((await detectFork(h, binary, runner.run)).fork).toBe('mainline')
    expect(runner.runs()).toBe(2)
  })

  it('sets a damaged file aside with a notice and probes again', async () => {
    const h = home()
    const binary = binaryIn(h, 'llama-server')
    writeFileSync(join(h, FORK_CACHE_FILE), '\0\0\0\0')
    const notices: string[] = []
    forkCacheStore(h).onNotice((n) => notices.push(n))
    const runner = countingRunner()
    expect((await detectFork(h, binary, runner.run)).fork).toBe('mainline')
    expect(runner.runs()).toBe(2)
    expect(readdirSync(h).filter((f) => f.startsWith(`${FORK_CACHE_FILE}.corrupt-`))).toHaveLength(1)
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatch(/^The engine cache .+ could not be read \(the file contains NUL bytes.+\); it was moved to .+\.$/)
    expect(Object.keys(JSON.parse(readFileSync(join(h, FORK_CACHE_FILE), 'utf8')).binaries)).toEqual([binary])
  })

  it('keeps every entry when binaries are detected in parallel', async () => {
    const h = home()
    const binaries = ['a', 'b', 'c', 'd'].map((n) => binaryIn(h, `llama-server-${n}`))
    await Promise.all(binaries.map((b) => detectFork(h, b, countingRunner().run)))
    expect(Object.keys(JSON.parse(readFileSync(join(h, FORK_CACHE_FILE), 'utf8')).binaries).sort()).toEqual(binaries)
  })
})
