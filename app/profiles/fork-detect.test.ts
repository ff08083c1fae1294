import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { FIXTURES } from '../../test/helpers/paths'
import { detectFork, forkFromOutput, runForOutput, type ServerBinaryInfo } from './fork-detect'
import { applyFixes, blockingProblems, checkArgs, checkFlags, fixArgs } from './flag-check'
import { importCommand } from './import-command'
import { profileToLaunchSpec } from './launch-spec'
import { SEED_3090_BUUN_I_QUALITY, SEED_3090_IK_I_COMPACT, SEED_4060_QWEN36 } from './seed-commands'

const read = (p: string): Promise<string> => readFile(join(FIXTURES, p), 'utf8')

let mainline: ServerBinaryInfo
let ik: ServerBinaryInfo
let buun: ServerBinaryInfo

beforeAll(async () => {
  mainline = forkFromOutput(
    '/opt/llama.cpp/bin/llama-server',
    await read('llama-server/responses/llama-server-help.txt'),
    await read('llama-server/responses/version.txt'),
  )
  ik = forkFromOutput(
    '/opt/ik/llama-server',
    await read('llama-server-forks/ik/help.stdout.txt'),
    await read('llama-server-forks/ik/version.stderr.txt'),
  )
  buun = forkFromOutput(
    '/opt/buun/llama-server',
    await read('llama-server-forks/buun/help.stdout.txt'),
    await read('llama-server-forks/buun/version.stderr.txt'),
  )
})

describe('engine detection from real --help/--version output', () => {
  it('classifies mainline, ik_llama and buun and reads their versions', () => {
    expect([mainline.fork, mainline.version, mainline.commit]).toEqual(['mainline', '0.5.0-dev', 'de3ff81'])
    expect([ik.fork, ik.version, ik.commit]).toEqual(['ik_llama', '4840', '8337e4cd3'])
    expect([buun.fork, buun.version, buun.commit]).toEqual(['buun', '9326', '1c4788192'])
  })

  it('reads the flags each accepts', () => {
    expect(mainline.flags).toContain('--load-mode')
    expect(mainline.flags).toContain('-lm')
    expect(mainline.flags).toContain('--spec-draft-n-max')
    expect(mainline.flags).not.toContain('--no-mmap')
    expect(mainline.flags).not.toContain('--draft-max')
    expect(ik.flags).toContain('-vhad')
    expect(ik.flags).toContain('--merge-qkv')
    expect(ik.flags).toContain('--no-mmap')
    expect(ik.flags).toContain('--cache-type-k-last')
    expect(buun.flags).toContain('--no-mmap')
    expect(buun.flags).toContain('--draft-max')
    expect(buun.cacheTypes).toContain('turbo4')
    expect(buun.cacheTypes).not.toContain('turbo8')
    expect(mainline.flags.size).toBeGreaterThan(200)
  })
})

describe('checkFlags and applyFixes', () => {
  it('mainline: --no-mmap → -lm none, --mlock → -lm mmap+mlock, both → -lm mlock', () => {
    expect(fixArgs(['-m', 'a.gguf', '--no-mmap'], mainline)).toEqual(['-m', 'a.gguf', '-lm', 'none'])
    expect(fixArgs(['--mlock', '-c', '4096'], mainline)).toEqual(['-lm', 'mmap+mlock', '-c', '4096'])
    expect(fixArgs(['--no-mmap', '-c', '1', '--mlock'], mainline)).toEqual(['-lm', 'mlock', '-c', '1'])
    const problems = checkArgs(['--no-mmap', '--mlock'], mainline)
    expect(problems.map((p) => [p.flag, p.replacement])).toEqual([
      ['--no-mmap', ['-lm', 'mlock']],
      ['--mlock', []],
    ])
  })

  it('mainline: --draft-max → --spec-draft-n-max, and -md alone gets --spec-type draft-simple', () => {
    expect(fixArgs(['-md', 'd.gguf', '--draft-max', '8', '--draft-min=2'], mainline)).toEqual([
      '-md',
      'd.gguf',
      '--spec-draft-n-max',
      '8',
      '--spec-draft-n-min',
      '2',
      '--spec-type',
      'draft-simple',
    ])
    const p = checkArgs(['-md', 'd.gguf'], mainline)
    expect(p).toEqual([expect.objectContaining({ flag: '-md', kind: 'ineffective', replacement: ['--spec-type', 'draft-simple'] })])
    expect(blockingProblems(p)).toEqual([])
  })

  it('ik_llama: draft settings move inside --spec-type draft:…', () => {
    expect(fixArgs(['-md', 'd.gguf', '--draft-max', '8', '--draft-min', '1'], ik)).toEqual([
      '-md',
      'd.gguf',
      '--spec-type',
      'draft:n_max=8,n_min=1',
    ])
    expect(fixArgs(['-md', 'd.gguf', '--spec-type', 'draft:p_min=0.0', '--draft-max', '8'], ik)).toEqual([
      '-md',
      'd.gguf',
      '--spec-type',
      'draft:p_min=0.0,n_max=8',
    ])
    expect(fixArgs(['-md', 'd.gguf'], ik)).toEqual(['-md', 'd.gguf', '--spec-type', 'draft'])
  })

  it('seed profiles: ik flags pass on ik, are named on mainline; turbo8 is named on buun', () => {
    const ikProfile = importCommand(SEED_3090_IK_I_COMPACT)
    expect(checkFlags(ikProfile, ik)).toEqual([])
    const onMainline = checkFlags(ikProfile, mainline).map((p) => p.flag)
    expect(onMainline).toEqual(
      expect.arrayContaining(['--parallel-tool-calls', '--recurrent-ckpt-mode', '--merge-qkv', '--no-mmap', '--mlock', '-vhad']),
    )
    const buunProblems = checkFlags(importCommand(SEED_3090_BUUN_I_QUALITY), buun)
    expect(buunProblems).toEqual([expect.objectContaining({ flag: '-ctk', kind: 'bad-value', replacement: null })])
    expect(buunProblems[0]?.message).toMatch(/turbo8/)
  })

  it('the 4060 seed on mainline v0.5.0: --no-mmap refused with -lm none, fixed profile passes', () => {
    const seed = importCommand(SEED_4060_QWEN36)
    const problems = checkFlags(seed, mainline)
    expect(blockingProblems(problems).map((p) => [p.flag, p.replacement])).toEqual([['--no-mmap', ['-lm', 'none']]])
    const fixed = applyFixes(seed, mainline)
    expect(fixed.settings.loadMode).toBe('none')
    expect(fixed.settings.noMmap).toBeUndefined()
    expect(checkFlags(fixed, mainline)).toEqual([])
    // Only the flag changed, in place; the rest is as pasted.
    const args = profileToLaunchSpec(fixed).args
    expect(args.slice(0, 10)).toEqual(['-ngl', '999', '--n-cpu-moe', '34', '-c', '65536', '--parallel', '1', '-lm', 'none'])
    expect(args.slice(-2)).toEqual(['--spec-type', 'draft-simple'])
  })

  it('does not judge a binary whose help it could not read', () => {
    const blank = forkFromOutput('/x', '', '')
    expect(blank.fork).toBe('unknown')
    expect(checkArgs(['--anything'], blank)).toEqual([])
  })
})

describe('the real mainline build', () => {
  let binary: string
  let home: string
  beforeAll(async () => {
    binary = llamaServerBin()
    home = await mkdtemp(join(tmpdir(), 'llama-tray-engine-'))
  }, 900_000)
  afterAll(async () => {
    await rm(home, { recursive: true, force: true })
  })

  it('is detected once and then served from the cache by path, size and mtime', async () => {
    let runs = 0
    const counting = (b: string, args: readonly string[]): Promise<string> => {
      runs++
      return runForOutput(b, args)
    }
    const first = await detectFork(home, binary, counting)
    expect(first.fork).toBe('mainline')
    expect(first.version).toMatch(/^0\.5\.0/)
    expect(first.flags).toContain('--load-mode')
    expect(first.flags).not.toContain('--no-mmap')
    expect(runs).toBe(2)
    const second = await detectFork(home, binary, counting)
    expect(runs).toBe(2)
    expect([...second.flags].sort()).toEqual([...first.flags].sort())
    // And the real binary rejects what checkFlags says it rejects.
    expect(await runForOutput(binary, ['--no-mmap', '--version'])).toMatch(/invalid argument: --no-mmap/)
  })
})
