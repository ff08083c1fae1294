import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { model } from '../../test/helpers/paths'
import { discover, type DiscoverOptions } from './discovery'
import { quantisationFromName } from './discovery-quant'
import { bestBinary, bestDraft, bestModel, DiscoveryPickError, profileFromDiscovery, starterSettings } from './discovery-profile'
import { ProfileStore } from './store'

let root: string
let opts: DiscoverOptions
const ran = (): string => join(root, 'a-binary-was-run')

/** An executable script named llama-server that leaves a mark if anything runs it. */
function fakeServer(dir: string): string {
  mkdirSync(dir, { recursive: true })
  const path = join(dir, 'llama-server')
  writeFileSync(path, `#!/bin/sh\ntouch '${ran()}'\necho "version: 1 (abc)"\n`)
  chmodSync(path, 0o755)
  return path
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'llama-tray-discovery-'))
  const home = join(root, 'home') // the user's home
  const tray = join(root, 'tray') // Llama Tray's home
  // Binaries: one on PATH, a source build, the same build again through a PATH symlink, a non-executable file, one chosen before.
  const onPath = fakeServer(join(root, 'path-bin'))
  const built = fakeServer(join(home, 'llama.cpp', 'build', 'bin'))
  mkdirSync(join(root, 'path-link'))
  symlinkSync(built, join(root, 'path-link', 'llama-server'))
  mkdirSync(join(root, 'path-noexec'))
  writeFileSync(join(root, 'path-noexec', 'llama-server'), 'not a program')
  const chosen = fakeServer(join(root, 'elsewhere'))
  const store = await ProfileStore.open(tray)
  const now = new Date().toISOString()
  await store.upsert({
    id: 'old',
    name: 'old',
    binary: chosen,
    model: '',
    settings: {},
    extraArgs: [],
    env: {},
    notes: '',
    createdAt: now,
    updatedAt: now,
  })

  // Models: LM Studio layout, an HF hub snapshot symlinked to its blob, ~/models with a corrupt file, an added folder.
  const lms = join(home, '.lmstudio', 'models', 'unsloth', 'Tiny-GGUF')
  mkdirSync(lms, { recursive: true })
  copyFileSync(model('tiny-target.gguf'), join(lms, 'Tiny-Target-Q4_K_M.gguf'))
  copyFileSync(model('tiny-draft.gguf'), join(lms, 'tiny-draft.gguf'))
  copyFileSync(model('tiny-target.gguf'), join(lms, 'mmproj-Tiny-F16.gguf')) // a projector: not listed
  const hub = join(root, 'hf', 'hub', 'models--org--tiny-iq')
  mkdirSync(join(hub, 'blobs'), { recursive: true })
  mkdirSync(join(hub, 'snapshots', '0123abcd'), { recursive: true })
  copyFileSync(model('tiny-target-iq.gguf'), join(hub, 'blobs', '60c58c51a396'))
  symlinkSync(join('..', '..', 'blobs', '60c58c51a396'), join(hub, 'snapshots', '0123abcd', 'tiny-target-iq.gguf'))
  mkdirSync(join(home, 'models', 'a', 'b', 'c', 'd', 'e', 'f', 'g'), { recursive: true })
  writeFileSync(join(home, 'models', 'broken.gguf'), Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(60, 0xff)]))
  writeFileSync(join(home, 'models', 'notes.gguf'), 'this is a text file\n'.repeat(4))
  copyFileSync(model('tiny-draft.gguf'), join(home, 'models', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'too-deep.gguf'))
  const added = join(root, 'my-models')
  mkdirSync(added)
  copyFileSync(model('tiny-draft-qwen35.gguf'), join(added, 'draft35-00001-of-00002.gguf'))
  copyFileSync(model('tiny-draft-qwen35.gguf'), join(added, 'draft35-00002-of-00002.gguf')) // a later split part: not listed
  symlinkSync(join(lms, 'Tiny-Target-Q4_K_M.gguf'), join(home, 'models', 'same-target.gguf')) // the same file again: listed once

  opts = {
    home: tray,
    homedir: home,
    platform: 'linux',
    env: {
      PATH: [join(root, 'path-noexec'), join(root, 'path-bin'), join(root, 'path-link'), join(root, 'missing')].join(':'),
      HF_HOME: join(root, 'hf'),
    },
    extraModelDirs: [added, join(root, 'no-such-folder')],
    limits: { maxDepth: 5, maxEntries: 10_000 },
  }
  void onPath
})

afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('discover (real files in a fake home, PATH, LM Studio and HF cache)', () => {
  it('finds each llama-server once, from profiles, PATH and install folders, without running any', async () => {
    const d = await discover(opts)
    // Only ours: the real /usr/local/bin, /usr/bin and /opt/*/bin are searched too.
    const found = d.binaries.filter((b) => b.path.startsWith(root)).map((b) => [b.path.slice(root.length), b.source])
    expect(found).toEqual([
      ['/elsewhere/llama-server', 'chosen before'],
      ['/path-bin/llama-server', 'PATH'],
      ['/path-link/llama-server', 'PATH'], // the source build, found first through its PATH symlink
    ])
    expect(d.binaries.every((b) => b.fork === null && /^b-[0-9a-f]{10}$/.test(b.id))).toBe(true)
    expect(existsSync(ran())).toBe(false)
    expect(d.searched).toContain(join(opts.homedir as string, 'llama.cpp', 'build', 'bin'))
  })

  it('reads every model header once, with quantisation, experts, training context, drafts and per-file problems', async () => {
    const d = await discover(opts)
    const byName = new Map(d.models.map((m) => [m.path.split('/').pop(), m]))
    expect([...byName.keys()].sort()).toEqual([
      'Tiny-Target-Q4_K_M.gguf',
      'broken.gguf',
      'draft35-00001-of-00002.gguf',
      'notes.gguf',
      'tiny-draft.gguf',
      'tiny-target-iq.gguf',
    ])
    expect(byName.get('Tiny-Target-Q4_K_M.gguf')).toMatchObject({
      architecture: 'qwen35moe',
      quantisation: 'Q4_K_M',
      layers: 40,
      experts: 8,
      trainingContext: 16384,
      looksLikeDraft: false,
      problem: null,
      source: 'LM Studio',
      fileMiB: 6.4,
    })
    // No quantisation in the name: the header's dominant weight type.
    expect(byName.get('tiny-target-iq.gguf')).toMatchObject({
      architecture: 'qwen35moe',
      quantisation: 'IQ4_NL',
      source: 'Hugging Face cache',
      looksLikeDraft: false,
      problem: null,
    })
    expect(byName.get('tiny-target-iq.gguf')?.path).toContain('snapshots')
    expect(byName.get('tiny-draft.gguf')).toMatchObject({
      architecture: 'qwen3',
      quantisation: 'Q8_0',
      experts: null,
      looksLikeDraft: true,
    })
    expect(byName.get('draft35-00001-of-00002.gguf')).toMatchObject({
      architecture: 'qwen35',
      looksLikeDraft: true,
      source: 'folder you added',
    })
    expect(byName.get('broken.gguf')?.problem).toMatch(/GGUF|truncated|corrupt/)
    expect(byName.get('notes.gguf')?.problem).toMatch(/not a GGUF file/)
    expect(d.searched).toEqual(
      expect.arrayContaining([join(opts.homedir as string, '.lmstudio', 'models'), join(root, 'hf', 'hub'), join(root, 'no-such-folder')]),
    )
  })

  it('gives the same ids on every run, and finds what is deeper when the depth allows', async () => {
    const a = await discover(opts)
    const b = await discover({ ...opts, limits: { maxDepth: 8, maxEntries: 10_000 } })
    expect(b.models.map((m) => m.id)).toEqual(expect.arrayContaining(a.models.map((m) => m.id)))
    expect(b.models.some((m) => m.path.endsWith('too-deep.gguf'))).toBe(true)
    const few = await discover({ ...opts, limits: { maxDepth: 8, maxEntries: 3 } })
    expect(few.models.length).toBeLessThan(a.models.length)
  })

  it('detect: runs each binary once to know its engine (opt-in)', async () => {
    const d = await discover({ ...opts, detect: true })
    expect(existsSync(ran())).toBe(true)
    const ours = (x: typeof d): typeof d.binaries => x.binaries.filter((b) => b.path.startsWith(root))
    expect(ours(d).every((b) => b.fork === 'unknown')).toBe(true)
    // The cache answers the next plain discovery.
    expect(ours(await discover(opts)).every((b) => b.fork === 'unknown')).toBe(true)
  })

  it('makes a starter profile from the best binary and model, with the draft, by id or list number', async () => {
    const d = await discover(opts)
    const binary = bestBinary(d)
    const target = bestModel(d)
    expect(target?.path).toMatch(/Tiny-Target-Q4_K_M\.gguf$/)
    if (!binary || !target) return
    const draft = bestDraft(d, target)
    expect(draft?.looksLikeDraft).toBe(true)
    const p = profileFromDiscovery(d, { binary: binary.id, model: target.id, draftModel: draft?.id ?? null, name: null }, [
      'tiny-target-q4_k_m',
    ])
    expect(p).toMatchObject({
      id: 'tiny-target-q4_k_m-2',
      binary: binary.path,
      model: target.path,
      draftModel: draft?.path,
      settings: { ctxSize: 8192, parallel: 1, gpuLayers: '99', cpuMoe: true },
    })
    const byNumber = profileFromDiscovery(
      d,
      { binary: '1', model: String(d.models.indexOf(target) + 1), draftModel: null, name: 'mine' },
      [],
    )
    expect(byNumber).toMatchObject({ id: 'mine', binary: d.binaries[0]?.path, model: target.path })
    const broken = d.models.find((m) => m.problem !== null)
    expect(() => profileFromDiscovery(d, { binary: binary.id, model: broken?.id ?? '', draftModel: null, name: null }, [])).toThrow(
      DiscoveryPickError,
    )
    expect(() => profileFromDiscovery(d, { binary: '/bin/sh', model: target.id, draftModel: null, name: null }, [])).toThrow(
      /no discovered binary/,
    )
  })
})

describe('starter settings and quantisation names', () => {
  it('caps the context at 8192 and never exceeds the training context; --cpu-moe only for MoE models', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 1, max: 1 << 20 }), { nil: null }),
        fc.option(fc.integer({ min: 1, max: 512 }), { nil: null }),
        (ctx, experts) => {
          const s = starterSettings({
            id: 'm-0',
            path: 'x.gguf',
            fileMiB: 1,
            architecture: 'x',
            quantisation: null,
            layers: 1,
            experts,
            trainingContext: ctx,
            looksLikeDraft: false,
            source: 's',
            problem: null,
          })
          expect(s.ctxSize).toBe(ctx === null ? 4096 : Math.min(ctx, 8192))
          expect(s.cpuMoe === true).toBe(experts !== null)
        },
      ),
      { numRuns: 10_000 },
    )
  })

  it('reads the quantisation people put in file names', () => {
    expect(quantisationFromName('Qwen3.6-35B-A3B-UD-Q4_K_XL.gguf')).toBe('UD-Q4_K_XL')
    expect(quantisationFromName('Qwen3.6-35B-A3B-IQ4_XS.gguf')).toBe('IQ4_XS')
    expect(quantisationFromName('gpt-oss-20b-mxfp4.gguf')).toBe('MXFP4')
    expect(quantisationFromName('model.Q8_0.gguf')).toBe('Q8_0')
    expect(quantisationFromName('Qwen3-30B-A3B-IQ4_KS_R4.gguf')).toBe('IQ4_KS_R4')
    expect(quantisationFromName('llama-3-8b-instruct-bf16-00001-of-00002.gguf')).toBe('BF16')
    expect(quantisationFromName('tiny-target-iq.gguf')).toBeNull()
  })
})
