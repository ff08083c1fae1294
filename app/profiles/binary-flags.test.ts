import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { acceptsFlag, type BinaryFlags, fieldSpellingFor, noMmapSpelling } from '../contract/binary-flags'
import { FIXTURES } from '../../test/helpers/paths'
import { forkFromOutput } from './fork-detect'

// The editor's controls come from the flags of the profile's own binary (issue #25): read here from the three engines'
// recorded --help, the way engine detection reads a binary's.
const read = (path: string): Promise<string> => readFile(join(FIXTURES, path), 'utf8')
async function flagsOf(help: string, version: string): Promise<BinaryFlags> {
  const engine = forkFromOutput('/opt/llama-server', await read(help), await read(version))
  return { fork: engine.fork, flags: [...engine.flags] }
}

let mainline: BinaryFlags
let ik: BinaryFlags
let buun: BinaryFlags
beforeAll(async () => {
  mainline = await flagsOf('llama-server/responses/llama-server-help.txt', 'llama-server/responses/version.txt')
  ik = await flagsOf('llama-server-forks/ik/help.stdout.txt', 'llama-server-forks/ik/version.stderr.txt')
  buun = await flagsOf('llama-server-forks/buun/help.stdout.txt', 'llama-server-forks/buun/version.stderr.txt')
})

describe('the flags a binary takes, for the editor', () => {
  it('"no memory map" is -lm none on mainline (no --no-mmap in its help) and --no-mmap on the forks (no -lm)', () => {
    expect(mainline.flags).not.toContain('--no-mmap')
    expect(noMmapSpelling(mainline)).toBe('load-mode')
    expect(noMmapSpelling(ik)).toBe('no-mmap')
    expect(noMmapSpelling(buun)).toBe('no-mmap')
  })

  it('a setting the binary has no flag for has no spelling: -lm on the forks, --mlock on mainline', () => {
    expect(fieldSpellingFor('loadMode', mainline)).toBe('-lm')
    expect(fieldSpellingFor('loadMode', ik)).toBeNull()
    expect(fieldSpellingFor('loadMode', buun)).toBeNull()
    expect(fieldSpellingFor('mlock', mainline)).toBeNull()
    expect(fieldSpellingFor('mlock', buun)).toBe('--mlock')
    // Common settings are spelled the same everywhere.
    for (const b of [mainline, ik, buun]) {
      expect(fieldSpellingFor('ctxSize', b)).toBe('-c')
      expect(fieldSpellingFor('nCpuMoe', b)).toBe('--n-cpu-moe')
    }
  })

  it("ik_llama.cpp's help leaves out flags it takes (-ngl in a CPU build): those are offered, the ones it rejects are not", () => {
    const cpuBuild: BinaryFlags = { fork: 'ik_llama', flags: ik.flags.filter((f) => f !== '-ngl' && f !== '--n-gpu-layers') }
    expect(acceptsFlag(cpuBuild, '-ngl')).toBe(true)
    expect(acceptsFlag(cpuBuild, '--load-mode')).toBe(false)
  })

  it('a binary not known yet, or whose help could not be read, is offered every control', () => {
    expect(noMmapSpelling(null)).toBe('either')
    expect(noMmapSpelling({ fork: 'unknown', flags: [] })).toBe('either')
    expect(fieldSpellingFor('mlock', null)).toBe('--mlock')
    expect(fieldSpellingFor('loadMode', { fork: 'unknown', flags: [] })).toBe('-lm')
  })
})
