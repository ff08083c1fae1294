import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tokenizeCommandLine } from '../lib/command-line'
import type { ServerBinaryInfo } from '../profiles/fork-detect'
import { SEED_3090_BUUN_I_QUALITY, SEED_3090_IK_I_COMPACT, SEED_4060_QWEN36 } from '../profiles/seed-commands'
import type { LintInput } from './lint-input'
import { lintArgs } from './rules'
import { fixtureEngines, seedModels, type SeedModels } from '../../test/support/advisor/fixtures'

/** The seed commands as argv without the binary. */
const argsOf = (cmd: string): string[] => {
  const argv = tokenizeCommandLine(cmd)
  return argv[0]?.startsWith('-') ? argv : argv.slice(1)
}

let engines: { mainline: ServerBinaryInfo; ik: ServerBinaryInfo; buun: ServerBinaryInfo }
let models: SeedModels
beforeAll(async () => {
  engines = await fixtureEngines()
  models = await seedModels()
})
afterAll(() => rm(models.dir, { recursive: true, force: true }))

const ids = (input: Partial<LintInput> & Pick<LintInput, 'args'>): string[] =>
  lintArgs({ platform: 'linux', binaryInfo: null, model: null, draft: null, vocab: null, ...input })
    .map((f) => f.id)
    .sort()

describe('seed 000 (RTX 4060 Laptop, Windows, Qwen3.6-35B-A3B with a Qwen3.5-0.8B draft)', () => {
  const args = argsOf(SEED_4060_QWEN36)

  it('on its own b9484 build (engine unknown here): only notes, the small hybrid KV cache and the draft’s f16 cache at 64K', () => {
    const findings = lintArgs({
      args,
      platform: 'win32',
      binaryInfo: null,
      model: models.qwen36,
      draft: models.draft,
      vocab: { compatible: true, reason: null },
    })
    expect(findings.map((f) => f.id).sort()).toEqual(['lint.draft-kv-f16', 'lint.hybrid-kv-quant'])
    expect(findings.every((f) => f.level === 'info')).toBe(true)
    // The draft's cache at the target's 64K: the 768 MiB llama.cpp reported on CUDA (q36-seed-draft.log), 408 MiB at q8_0.
    expect(findings.find((f) => f.id === 'lint.draft-kv-f16')?.headline).toContain('f16 KV cache takes 768 MiB of VRAM')
    const kv = findings.find((f) => f.id === 'lint.hybrid-kv-quant')
    // 10 attention layers × 65536 cells × 2 KV heads × 256: 1280 MiB at f16, 360 MiB at q4_0 (seed-notes "Model shapes").
    expect(kv?.reason).toContain('10 of 40 layers')
    expect(kv?.reason).toContain('1280 MiB at f16 (360 MiB with q4_0/q4_0)')
    expect(kv?.level).toBe('info')
  })

  it('on mainline v0.5.0: --no-mmap is rejected (error, -lm none) and the draft would never be used (--spec-type draft-simple)', () => {
    const findings = lintArgs({
      args,
      platform: 'win32',
      binaryInfo: engines.mainline,
      model: models.qwen36,
      draft: models.draft,
      vocab: { compatible: true, reason: null },
    })
    expect(findings.map((f) => f.id).sort()).toEqual([
      'lint.draft-kv-f16',
      'lint.draft-unused',
      'lint.fit-hand-picked',
      'lint.flag-rejected:--no-mmap',
      'lint.hybrid-kv-quant',
    ])
    expect(findings[0]).toMatchObject({
      id: 'lint.flag-rejected:--no-mmap',
      level: 'error',
      fix: { removeArgs: ['--no-mmap'], addArgs: ['-lm', 'none'] },
    })
    expect(findings.find((f) => f.id === 'lint.draft-unused')?.fix).toMatchObject({
      removeArgs: [],
      addArgs: ['--spec-type', 'draft-simple'],
    })
  })

  it('before the seed author found --no-mmap, the advisor would have said so (~11 → ~43 tok/s)', () => {
    const without = args.filter((a) => a !== '--no-mmap')
    const f = lintArgs({
      args: without,
      platform: 'win32',
      binaryInfo: engines.buun,
      model: models.qwen36,
      draft: models.draft,
      vocab: null,
    })
    const mmap = f.find((x) => x.id === 'lint.mmap-with-cpu-experts')
    expect(mmap?.reason).toContain('~11 to ~43 tok/s')
    expect(mmap?.fix?.addArgs).toEqual(['--no-mmap'])
    const onMainline = lintArgs({ args: without, platform: 'win32', binaryInfo: engines.mainline, model: null, draft: null, vocab: null })
    expect(onMainline.find((x) => x.id === 'lint.mmap-with-cpu-experts')?.fix?.addArgs).toEqual(['-lm', 'none'])
  })
})

describe('seed 004 (RTX 3090, Linux, APEX models; the synthetic Qwen3.6 GGUF stands in for the APEX file)', () => {
  const ik = argsOf(SEED_3090_IK_I_COMPACT)
  const buun = argsOf(SEED_3090_BUUN_I_QUALITY)

  it('ik_llama command on ik_llama: exposed without a key (error) and -vhad twice (warn, no rewrite)', () => {
    const findings = lintArgs({ args: ik, platform: 'linux', binaryInfo: engines.ik, model: models.qwen36, draft: null, vocab: null })
    expect(findings.map((f) => f.id).sort()).toEqual(['lint.duplicate-flag:-vhad', 'lint.exposed-without-key'])
    expect(findings.find((f) => f.id === 'lint.duplicate-flag:-vhad')?.fix).toBeNull()
    expect(findings.find((f) => f.id === 'lint.exposed-without-key')).toMatchObject({
      level: 'error',
      fix: { addArgs: ['--host', '127.0.0.1'] },
    })
  })

  it('the same command on Windows adds --mlock with --no-mmap (error)', () => {
    expect(ids({ args: ik, platform: 'win32', binaryInfo: engines.ik, model: models.qwen36 })).toEqual([
      'lint.duplicate-flag:-vhad',
      'lint.exposed-without-key',
      'lint.mlock-no-mmap-windows',
    ])
  })

  it('the ik command on a mainline binary names every ik-only or removed flag', () => {
    const got = ids({ args: ik, binaryInfo: engines.mainline })
    expect(got).toEqual(
      expect.arrayContaining([
        'lint.flag-rejected:--parallel-tool-calls',
        'lint.flag-rejected:--recurrent-ckpt-mode',
        'lint.flag-rejected:--merge-qkv',
        'lint.flag-rejected:--no-mmap',
        'lint.flag-rejected:--mlock',
        'lint.flag-rejected:-vhad',
        'lint.exposed-without-key',
      ]),
    )
  })

  it('buun command on buun: exposed without a key, and turbo8 (no buun branch has it) as a bad value', () => {
    const findings = lintArgs({ args: buun, platform: 'linux', binaryInfo: engines.buun, model: models.qwen36, draft: null, vocab: null })
    expect(findings.map((f) => f.id).sort()).toEqual(['lint.exposed-without-key', 'lint.flag-rejected:-ctk'])
    expect(findings.find((f) => f.id === 'lint.flag-rejected:-ctk')?.reason).toContain('turbo8')
  })

  it('both seed 004 commands have an error-level finding, so `llama-tray lint` exits 1 for them', () => {
    for (const args of [ik, buun])
      expect(
        lintArgs({ args, platform: 'linux', binaryInfo: null, model: null, draft: null, vocab: null }).some((f) => f.level === 'error'),
      ).toBe(true)
  })
})
