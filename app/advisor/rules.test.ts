import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CUDA_H200 } from '../../test/helpers/paths'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readGgufModel, type GgufModel } from '../fit/gguf-model'
import type { ServerBinaryInfo } from '../profiles/fork-detect'
import { applyFixToArgs } from './apply-fix-args'
import type { LintInput } from './lint-input'
import { LINT_RULES, lintArgs } from './rules'
import { fixtureEngines, seedModels, TINY, withPatchedToken, type SeedModels } from '../../test/support/advisor/fixtures'
import { compareVocab, readVocab } from './vocab'

let engines: { mainline: ServerBinaryInfo; ik: ServerBinaryInfo; buun: ServerBinaryInfo }
let seed: SeedModels
let tiny: GgufModel
let tinyIq: GgufModel
let tmp: string
beforeAll(async () => {
  engines = await fixtureEngines()
  seed = await seedModels()
  tiny = await readGgufModel(TINY('tiny-target.gguf'))
  tinyIq = await readGgufModel(TINY('tiny-target-iq.gguf'))
  tmp = await mkdtemp(join(tmpdir(), 'llama-tray-rules-'))
})
afterAll(async () => {
  await rm(seed.dir, { recursive: true, force: true })
  await rm(tmp, { recursive: true, force: true })
})

const base = (over: Partial<LintInput> & Pick<LintInput, 'args'>): LintInput => ({
  platform: 'linux',
  binaryInfo: null,
  model: null,
  draft: null,
  vocab: null,
  ...over,
})
const rule = (id: string, over: Partial<LintInput> & Pick<LintInput, 'args'>) => lintArgs(base(over)).filter((f) => f.rule === id)

describe('every rule fires on its case and stays silent on the fixed one', () => {
  it('has a test below for every rule in the table', () => {
    expect(LINT_RULES.map((r) => r.id).sort()).toEqual(
      [
        'lint.auto-slots',
        'lint.ctx-above-training',
        'lint.draft-kv-f16',
        'lint.draft-reasoning',
        'lint.draft-unused',
        'lint.draft-vocab-mismatch',
        'lint.duplicate-flag',
        'lint.exposed-without-key',
        'lint.fit-aborts',
        'lint.fit-hand-picked',
        'lint.fit-target-headroom',
        'lint.flag-rejected',
        'lint.hybrid-flash-attn',
        'lint.hybrid-kv-quant',
        'lint.iquant-cpu-experts',
        'lint.mlock-no-mmap-windows',
        'lint.mmap-with-cpu-experts',
        'lint.mtp-enabled',
        'lint.sleep-idle',
      ].sort(),
    )
  })

  it('lint.flag-rejected', () => {
    expect(rule('lint.flag-rejected', { args: ['--no-mmap', '-c', '4096'], binaryInfo: engines.mainline })[0]).toMatchObject({
      level: 'error',
      // The engine and the flag in the headline; what the binary says behind it.
      headline: expect.stringMatching(/^This llama-server \(mainline .*\) does not accept --no-mmap, so it fails to start\.$/),
      reason: expect.stringMatching(/^This binary \(mainline .*\) .*--no-mmap.*\.$/),
      fix: { removeArgs: ['--no-mmap'], addArgs: ['-lm', 'none'] },
    })
    expect(rule('lint.flag-rejected', { args: ['-vhad'], binaryInfo: engines.buun })[0]?.fix).toEqual({
      label: 'Remove -vhad',
      removeArgs: ['-vhad'],
      addArgs: [],
    })
    expect(rule('lint.flag-rejected', { args: ['--no-mmap'], binaryInfo: engines.ik })).toEqual([])
    expect(rule('lint.flag-rejected', { args: ['-lm', 'none'], binaryInfo: engines.mainline })).toEqual([])
    expect(rule('lint.flag-rejected', { args: ['--no-mmap'], binaryInfo: null })).toEqual([])
  })

  it('lint.draft-unused', () => {
    expect(rule('lint.draft-unused', { args: ['-md', 'd.gguf'], binaryInfo: engines.mainline })[0]).toMatchObject({
      headline: 'The draft model takes memory but is never used: this llama-server speculates only with --spec-type.',
      reason: expect.stringMatching(/^This binary \(mainline .*\) .*: add --spec-type draft-simple\. See llama\.cpp issue #25345\.$/),
    })
    expect(rule('lint.draft-unused', { args: ['-md', 'd.gguf'], binaryInfo: engines.mainline })[0]?.fix?.addArgs).toEqual([
      '--spec-type',
      'draft-simple',
    ])
    expect(rule('lint.draft-unused', { args: ['-md', 'd.gguf'], binaryInfo: engines.ik })[0]?.fix?.addArgs).toEqual([
      '--spec-type',
      'draft',
    ])
    expect(rule('lint.draft-unused', { args: ['-md', 'd.gguf', '--spec-type', 'draft-simple'], binaryInfo: engines.mainline })).toEqual([])
    expect(rule('lint.draft-unused', { args: ['-md', 'd.gguf'], binaryInfo: engines.buun })).toEqual([])
  })

  it('lint.draft-kv-f16 sizes the draft cache at the target’s context', () => {
    const f = rule('lint.draft-kv-f16', {
      args: ['-c', '65536', '-np', '1', '-md', 'd.gguf'],
      model: seed.qwen36,
      draft: seed.draft,
      binaryInfo: engines.mainline,
    })
    // The size llama-server itself reported on CUDA for this draft at 64K (test/fixtures/llama-server-cuda-h200/q36-seed-draft.log).
    expect(f[0]?.headline).toBe("The draft model's f16 KV cache takes 768 MiB of VRAM at 65536 tokens.")
    expect(f[0]?.reason).toContain('A q8_0 draft cache takes')
    expect(f[0]?.fix?.addArgs).toEqual(['-ctkd', 'q8_0', '-ctvd', 'q8_0'])
    expect(
      rule('lint.draft-kv-f16', {
        args: ['-c', '65536', '-np', '1', '-md', 'd.gguf', '-ctkd', 'q8_0', '-ctvd', 'q8_0'],
        model: seed.qwen36,
        draft: seed.draft,
        binaryInfo: engines.mainline,
      }),
    ).toEqual([])
    expect(
      rule('lint.draft-kv-f16', {
        args: ['-c', '8192', '-np', '1', '-md', 'd.gguf'],
        model: seed.qwen36,
        draft: seed.draft,
        binaryInfo: engines.mainline,
      }),
    ).toEqual([])
    expect(rule('lint.draft-kv-f16', { args: ['-c', '65536', '-np', '1'], model: seed.qwen36, draft: null })).toEqual([])
  })

  it('lint.draft-vocab-mismatch compares the GGUF tokenizers', async () => {
    const target = await readVocab(TINY('tiny-target.gguf'))
    const same = compareVocab(target, await readVocab(TINY('tiny-draft.gguf')))
    expect(same).toEqual({ compatible: true, reason: null })
    const patched = await withPatchedToken(TINY('tiny-draft.gguf'), tmp, '<think>', '<thonk>')
    const other = compareVocab(target, await readVocab(patched))
    expect(other.compatible).toBe(false)
    expect(other.reason).toMatch(/"<think>" vs "<thonk>"/)
    const f = rule('lint.draft-vocab-mismatch', { args: ['-m', 't.gguf', '-md', patched, '-ngld', '99'], vocab: other })
    expect(f[0]?.headline).toBe("The draft model's vocabulary differs from the target's, so it only costs memory.")
    expect(f[0]?.reason).toContain('<thonk>')
    expect(f[0]?.reason).toContain('the target and draft vocabs are not compatible')
    expect(applyFixToArgs(['-m', 't.gguf', '-md', patched, '-ngld', '99'], f[0]!.fix!)).toEqual(['-m', 't.gguf'])
    expect(rule('lint.draft-vocab-mismatch', { args: ['-m', 't.gguf', '-md', 'd.gguf'], vocab: same })).toEqual([])
  })

  it('lint.mmap-with-cpu-experts quotes the load time -lm none cost on the GPU machine (its recording)', async () => {
    const { readFile } = await import('node:fs/promises')
    const tsv = await readFile(join(CUDA_H200, 'summary.tsv'), 'utf8')
    const readyS = (name: string) =>
      tsv
        .split('\n')
        .find((l) => l.startsWith(`${name}\t`))
        ?.split('\t')[1]
    const found = rule('lint.mmap-with-cpu-experts', { args: ['--n-cpu-moe', '34'] })[0]
    expect(found?.headline).toBe('Experts run on the CPU (--n-cpu-moe 34) from a memory-mapped model, which slows generation.')
    expect(found?.reason).toMatch(/^Each token page-faults on expert weights\. /)
    expect(found?.reason).toContain(`ready in ${readyS('q36-seed-lm-none')} s against ${readyS('q36-seed')} s memory-mapped`)
  })

  it('lint.mmap-with-cpu-experts', () => {
    for (const args of [['--n-cpu-moe', '34'], ['--cpu-moe'], ['-ot', 'blk\\.(1|2)\\.ffn_.*_exps=CPU']])
      expect(rule('lint.mmap-with-cpu-experts', { args })).toHaveLength(1)
    for (const args of [
      ['--n-cpu-moe', '34', '--no-mmap'],
      ['--cpu-moe', '-lm', 'none'],
      ['--n-cpu-moe', '0'],
      ['-ot', 'exps=CUDA0'],
      ['--cpu-moe', '-rtr'],
    ])
      expect(rule('lint.mmap-with-cpu-experts', { args })).toEqual([])
  })

  it('lint.mlock-no-mmap-windows', () => {
    expect(rule('lint.mlock-no-mmap-windows', { args: ['--no-mmap', '--mlock'], platform: 'win32' })[0]?.level).toBe('error')
    expect(rule('lint.mlock-no-mmap-windows', { args: ['-lm', 'mlock'], platform: 'win32' })[0]?.fix?.addArgs).toEqual(['-lm', 'none'])
    expect(rule('lint.mlock-no-mmap-windows', { args: ['--no-mmap', '--mlock'], platform: 'linux' })).toEqual([])
    expect(rule('lint.mlock-no-mmap-windows', { args: ['--no-mmap'], platform: 'win32' })).toEqual([])
  })

  it('lint.iquant-cpu-experts reads the expert tensor types from the GGUF', () => {
    expect(rule('lint.iquant-cpu-experts', { args: ['--n-cpu-moe', '4'], model: tinyIq })[0]?.headline).toContain('IQ4_NL')
    expect(rule('lint.iquant-cpu-experts', { args: ['--n-cpu-moe', '30'], model: seed.qwen36Iq })[0]?.headline).toContain('IQ4_XS')
    expect(rule('lint.iquant-cpu-experts', { args: ['--n-cpu-moe', '4'], model: tiny })).toEqual([])
    expect(rule('lint.iquant-cpu-experts', { args: ['--n-cpu-moe', '30'], model: seed.qwen36 })).toEqual([])
    expect(rule('lint.iquant-cpu-experts', { args: ['-ngl', '99'], model: seed.qwen36Iq })).toEqual([])
  })

  it('lint.hybrid-kv-quant shows the KV size of the attention layers only', () => {
    const f = rule('lint.hybrid-kv-quant', { args: ['-c', '65536', '-np', '1', '-ctk', 'turbo3', '-ctv', 'turbo3'], model: seed.qwen36 })
    expect(f[0]?.headline).toBe('Quantising the KV cache of this hybrid model saves little memory and costs quality.')
    expect(f[0]?.reason).toMatch(/^Only 10 of 40 layers have one\. /)
    expect(f[0]?.reason).toContain('1280 MiB at f16')
    expect(f[0]?.reason).toContain('less with turbo3/turbo3')
    expect(rule('lint.hybrid-kv-quant', { args: ['-c', '65536', '-np', '1'], model: seed.qwen36 })).toEqual([])
    // At 192K the f16 cache is 3.75 GiB, 18% of the weights: not small.
    expect(
      rule('lint.hybrid-kv-quant', { args: ['-c', '196608', '-np', '1', '-ctk', 'q8_0', '-ctv', 'q5_0'], model: seed.qwen36 }),
    ).toEqual([])
    // Not a hybrid (every layer has a KV cache).
    expect(
      rule('lint.hybrid-kv-quant', {
        args: ['-c', '4096', '-ctk', 'q8_0'],
        model: seed.draft.layers.some((l) => l.kind === 'recurrent') ? null : seed.draft,
      }),
    ).toEqual([])
  })

  it('lint.hybrid-flash-attn', () => {
    expect(rule('lint.hybrid-flash-attn', { args: ['-c', '65536', '-np', '1', '-fa', 'on'], model: seed.qwen36 })[0]?.fix?.addArgs).toEqual(
      ['-fa', 'auto'],
    )
    expect(rule('lint.hybrid-flash-attn', { args: ['-c', '65536', '-np', '1', '-fa', 'auto'], model: seed.qwen36 })).toEqual([])
    expect(rule('lint.hybrid-flash-attn', { args: ['-c', '65536', '-np', '1', '-fa', 'on', '-ctv', 'q4_0'], model: seed.qwen36 })).toEqual(
      [],
    )
  })

  it('lint.draft-reasoning', () => {
    const budget = rule('lint.draft-reasoning', { args: ['-md', 'd.gguf', '--reasoning-budget', '0'] })
    expect(budget[0]?.fix).toMatchObject({
      removeArgs: expect.arrayContaining(['--reasoning-budget', '--reasoning']),
      addArgs: ['--reasoning', 'off'],
    })
    const kwargs = rule('lint.draft-reasoning', { args: ['-md', 'd.gguf', '--chat-template-kwargs', '{"enable_thinking":false,"x":1}'] })
    expect(kwargs[0]?.fix?.addArgs).toEqual(['--chat-template-kwargs', '{"x":1}', '--reasoning', 'off'])
    expect(rule('lint.draft-reasoning', { args: ['--reasoning-budget', '0'] })).toEqual([])
    expect(rule('lint.draft-reasoning', { args: ['-md', 'd.gguf', '--reasoning', 'off'] })).toEqual([])
  })

  it('lint.exposed-without-key', () => {
    expect(rule('lint.exposed-without-key', { args: ['--host', '0.0.0.0'] })).toHaveLength(1)
    expect(rule('lint.exposed-without-key', { args: ['--host', '0.0.0.0', '--api-key-file', 'k.txt'] })).toEqual([])
    expect(rule('lint.exposed-without-key', { args: ['--host', '0.0.0.0', '--api-key', 'a-good-key-1'] })).toEqual([])
    for (const key of ['', ',', '   ', 'short']) {
      const found = rule('lint.exposed-without-key', { args: ['--host', '0.0.0.0', '--api-key', key] })
      expect(found, JSON.stringify(key)).toHaveLength(1)
      expect(found[0]?.headline).toBe('The API key does not protect the server on 0.0.0.0, so Llama Tray refuses to start it.')
      expect(found[0]?.reason).toMatch(/^[A-Z].*--api-key.*\.$/)
    }
    expect(rule('lint.exposed-without-key', { args: ['--host', '127.0.0.1'] })).toEqual([])
    expect(rule('lint.exposed-without-key', { args: [] })).toEqual([])
  })

  it('lint.duplicate-flag', () => {
    const v = rule('lint.duplicate-flag', { args: ['-c', '4096', '--ctx-size', '8192'] })
    expect(v[0]).toMatchObject({ id: 'lint.duplicate-flag:-c', fix: { removeArgs: ['-c', '--ctx-size'], addArgs: ['--ctx-size', '8192'] } })
    expect(rule('lint.duplicate-flag', { args: ['-ot', 'a=CPU', '-ot', 'b=CPU', '--spec-type', 'x', '--spec-type', 'y'] })).toEqual([])
    expect(rule('lint.duplicate-flag', { args: ['-c', '4096', '-np', '1'] })).toEqual([])
  })

  it('lint.ctx-above-training', () => {
    expect(rule('lint.ctx-above-training', { args: ['-c', '65536'], model: tiny })[0]?.fix?.addArgs).toEqual(['-c', '16384'])
    expect(rule('lint.ctx-above-training', { args: ['-c', '65536', '-np', '4'], model: tiny })).toEqual([])
    expect(rule('lint.ctx-above-training', { args: ['-c', '16384'], model: tiny })).toEqual([])
    expect(rule('lint.ctx-above-training', { args: ['-c', '65536'], model: null })).toEqual([])
  })

  it('lint.fit-hand-picked: explains the trade, offers llama.cpp’s fit with a target that keeps the headroom', () => {
    const f = rule('lint.fit-hand-picked', { args: ['-ngl', '999', '--n-cpu-moe', '33', '-c', '65536'], binaryInfo: engines.mainline })
    expect(f).toHaveLength(1)
    expect(f[0]?.headline).toContain('-ngl 999, --n-cpu-moe 33')
    expect(f[0]?.reason).toContain('6708 MiB')
    expect(f[0]?.fix?.addArgs).toEqual(['-fitt', '1640'])
    expect(f[0]?.fix?.removeArgs).toEqual(expect.arrayContaining(['-ngl', '--n-cpu-moe', '-ot', '-ts', '--cpu-moe']))
    // Silent: nothing hand-picked, fit turned off or asked for explicitly (lint.fit-aborts speaks then), ik_llama, unknown engine.
    expect(rule('lint.fit-hand-picked', { args: ['-c', '65536'], binaryInfo: engines.mainline })).toEqual([])
    expect(rule('lint.fit-hand-picked', { args: ['-fit', 'off', '--n-cpu-moe', '33'], binaryInfo: engines.mainline })).toEqual([])
    expect(rule('lint.fit-hand-picked', { args: ['-fit', 'on', '--n-cpu-moe', '33'], binaryInfo: engines.mainline })).toEqual([])
    expect(rule('lint.fit-hand-picked', { args: ['--n-cpu-moe', '33'], binaryInfo: engines.ik })).toEqual([])
    expect(rule('lint.fit-hand-picked', { args: ['--n-cpu-moe', '33'], binaryInfo: null })).toEqual([])
  })

  it('lint.fit-target-headroom: llama.cpp’s default 1024 MiB target is under the app’s headroom', () => {
    const f = rule('lint.fit-target-headroom', { args: ['-c', '65536'], binaryInfo: engines.mainline, model: seed.qwen36 })
    expect(f[0]).toMatchObject({
      level: 'warn',
      fix: { removeArgs: expect.arrayContaining(['-fitt', '--fit-target']), addArgs: ['-fitt', '1640'] },
    })
    expect(f[0]?.headline).toBe('The fit of llama.cpp leaves only 1024 MiB of VRAM free, under the 1536 MiB this app keeps free.')
    expect(f[0]?.reason).toMatch(/^That is its default; .* Set -fitt 1640\. Measured on /)
    expect(rule('lint.fit-target-headroom', { args: ['-fitt', '512'], binaryInfo: engines.mainline })[0]?.headline).toContain(
      'leaves only 512 MiB of VRAM free',
    )
    expect(rule('lint.fit-target-headroom', { args: ['-fitt', '1640'], binaryInfo: engines.mainline })).toEqual([])
    expect(rule('lint.fit-target-headroom', { args: ['-c', '4096'], binaryInfo: engines.mainline, model: tiny })).toEqual([])
    expect(rule('lint.fit-target-headroom', { args: ['-fit', 'off'], binaryInfo: engines.mainline })).toEqual([])
    expect(rule('lint.fit-target-headroom', { args: ['--n-cpu-moe', '30'], binaryInfo: engines.mainline })).toEqual([])
    expect(rule('lint.fit-target-headroom', { args: [], binaryInfo: engines.buun })).toEqual([])
  })

  it('lint.fit-aborts', () => {
    expect(rule('lint.fit-aborts', { args: ['-fit', 'on', '--n-cpu-moe', '30'] })[0]?.headline).toContain('--n-cpu-moe')
    expect(rule('lint.fit-aborts', { args: ['-fit', 'on', '-c', '4096'] })).toEqual([])
    expect(rule('lint.fit-aborts', { args: ['-fit', 'off', '-ngl', '99'] })).toEqual([])
    expect(rule('lint.fit-aborts', { args: ['--fit', 'on', '-ngl', '99'], binaryInfo: engines.ik })).toEqual([])
  })

  it('lint.auto-slots', () => {
    const f = rule('lint.auto-slots', { args: ['-c', '65536'], binaryInfo: engines.mainline, model: seed.qwen36 })
    expect(f[0]?.headline).toBe('With -c 65536 and no -np, this llama-server serves 4 slots, so buffers are sized for 4 sequences.')
    expect(f[0]?.reason).toContain('3 more copies of the recurrent state')
    expect(f[0]?.reason).toMatch(/For one user, set -np 1\.$/)
    expect(f[0]?.fix?.addArgs).toEqual(['-np', '1'])
    expect(rule('lint.auto-slots', { args: ['-c', '65536', '-np', '1'], binaryInfo: engines.mainline })).toEqual([])
    expect(rule('lint.auto-slots', { args: ['-c', '65536'], binaryInfo: engines.ik })).toEqual([])
    expect(rule('lint.auto-slots', { args: [], binaryInfo: engines.mainline })).toEqual([])
  })

  it('lint.mtp-enabled', () => {
    expect(rule('lint.mtp-enabled', { args: ['--spec-type', 'draft-mtp'] })[0]?.fix).toMatchObject({
      removeArgs: expect.arrayContaining(['--spec-type']),
      addArgs: [],
    })
    expect(
      rule('lint.mtp-enabled', { args: ['--spec-type', 'ngram-mod:n_max=64', '--spec-type', 'mtp:n_max=1'] })[0]?.fix?.addArgs,
    ).toEqual(['--spec-type', 'ngram-mod:n_max=64'])
    expect(rule('lint.mtp-enabled', { args: ['--spec-type', 'draft-simple'] })).toEqual([])
  })

  it('lint.sleep-idle', () => {
    const f = rule('lint.sleep-idle', { args: ['-m', 'm.gguf'], binaryInfo: engines.mainline, laptop: true })
    expect(f[0]).toMatchObject({ level: 'info', fix: { removeArgs: [], addArgs: ['--sleep-idle-seconds', '300'] } })
    expect(f[0]?.headline).toBe("On a laptop the model holds the GPU's memory while nothing asks it anything.")
    expect(f[0]?.reason).toContain('VRAM freed')
    // engine unknown: still worth saying
    expect(rule('lint.sleep-idle', { args: ['-m', 'm.gguf'], binaryInfo: null, laptop: true })).toHaveLength(1)
    expect(rule('lint.sleep-idle', { args: ['-m', 'm.gguf'], binaryInfo: engines.buun, laptop: true })).toHaveLength(1)
    // Already set (to sleep, or explicitly never), not a laptop, unknown machine, or an engine without the flag: silent.
    expect(rule('lint.sleep-idle', { args: ['--sleep-idle-seconds', '600'], binaryInfo: engines.mainline, laptop: true })).toEqual([])
    expect(rule('lint.sleep-idle', { args: ['--sleep-idle-seconds', '-1'], binaryInfo: engines.mainline, laptop: true })).toEqual([])
    expect(rule('lint.sleep-idle', { args: [], binaryInfo: engines.mainline, laptop: false })).toEqual([])
    expect(rule('lint.sleep-idle', { args: [], binaryInfo: engines.mainline })).toEqual([])
    expect(rule('lint.sleep-idle', { args: [], binaryInfo: engines.ik, laptop: true })).toEqual([])
  })
})

describe('fixes', () => {
  const TOKENS: readonly (readonly string[])[] = [
    ['--n-cpu-moe', '30'],
    ['--cpu-moe'],
    ['--no-mmap'],
    ['--mlock'],
    ['-lm', 'mlock'],
    ['-c', '65536'],
    ['-c', '4096'],
    ['-np', '1'],
    ['-np', '4'],
    ['-ctk', 'q4_0'],
    ['-ctv', 'q4_0'],
    ['-fa', 'on'],
    ['-md', 'd.gguf'],
    ['--reasoning-budget', '0'],
    ['--chat-template-kwargs', '{"enable_thinking":false}'],
    ['--host', '0.0.0.0'],
    ['-vhad'],
    ['-fit', 'on'],
    ['-ngl', '99'],
    ['--spec-type', 'draft-mtp'],
    ['--reasoning', 'off'],
    ['-ot', 'exps=CPU'],
    ['--merge-qkv'],
    ['--draft-max', '8'],
  ]
  it('applying any finding’s fix removes that finding (5,000 random commands, every engine and platform)', () => {
    const engineArb = fc.constantFrom<'mainline' | 'ik' | 'buun' | null>('mainline', 'ik', 'buun', null)
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 10 }),
        engineArb,
        fc.constantFrom<'win32' | 'linux'>('win32', 'linux'),
        fc.boolean(),
        (parts, e, platform, withModel) => {
          const args = parts.flat()
          const input = base({ args, platform, binaryInfo: e === null ? null : engines[e], model: withModel ? seed.qwen36 : tiny })
          for (const f of lintArgs(input)) {
            if (!f.fix) continue
            const after = lintArgs({ ...input, args: applyFixToArgs(args, f.fix) }).map((x) => x.id)
            if (after.includes(f.id)) throw new Error(`${f.id} still fires after its fix on ${args.join(' ')}`)
          }
        },
      ),
      { numRuns: 5_000 },
    )
    // CPU-bound: it went past the default 30 s on 2 cores at load 13 (six builds and test runs beside it).
  }, 120_000)

  it('applyFixToArgs puts the replacement where the removed flag was, with --flag=value forms too', () => {
    expect(applyFixToArgs(['-m', 'a', '--no-mmap', '-c', '1'], { removeArgs: ['--no-mmap'], addArgs: ['-lm', 'none'] })).toEqual([
      '-m',
      'a',
      '-lm',
      'none',
      '-c',
      '1',
    ])
    expect(applyFixToArgs(['--ctx-size=4096', '-np', '2'], { removeArgs: ['-c', '--ctx-size'], addArgs: ['-c', '8'] })).toEqual([
      '-c',
      '8',
      '-np',
      '2',
    ])
    expect(applyFixToArgs(['-m', 'a'], { removeArgs: [], addArgs: ['-np', '1'] })).toEqual(['-m', 'a', '-np', '1'])
  })
})
