import { mkdtempSync, rmSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import type { ModelPullProgress } from '../contract/models'
import { model } from '../../test/helpers/paths'
import { HfHubStandIn, recipeStandInRepos, startTinyHub } from '../../test/stand-ins/hf-hub'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { LlamaTrayCore } from './llama-tray-core'

// The dashboard's models:pull over the real core, against the Hub stand-in.
let hub: HfHubStandIn
let home: string
let core: LlamaTrayCore
const progress: ModelPullProgress[] = []

beforeAll(async () => {
  hub = await startTinyHub(recipeStandInRepos())
  home = mkdtempSync(join(tmpdir(), 'llama-tray-model-channels-'))
  core = await LlamaTrayCore.create({
    home,
    telemetry: null,
    models: { env: { HF_ENDPOINT: hub.origin, HF_HUB_CACHE: join(home, 'hub') } },
  })
  core.on('models:progress', (p) => progress.push(p))
})

afterAll(async () => {
  await core?.dispose()
  await hub?.close()
  rmSync(home, { recursive: true, force: true })
})

describe('models:pull over the core', () => {
  it('pulls with progress events, one at a time, and refuses in one sentence', async () => {
    const [pulled, busy] = await Promise.all([
      core.handlers['models:pull']('test-org/Tiny-GGUF:Q4_K_M', null),
      core.handlers['models:pull']('test-org/Tiny-GGUF:Q4_K_M', null),
    ])
    expect(busy).toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: 'A model is already being downloaded: wait for it to finish.' }),
    })
    if (!pulled.ok) throw new Error(pulled.error.sentence)
    const want = hub.repo('test-org/Tiny-GGUF').files.find((f) => f.path === 'tiny-target-Q4_K_M.gguf')!
    expect(pulled.value).toMatchObject({
      repo: 'test-org/Tiny-GGUF',
      file: want.path,
      sizeBytes: want.size,
      sha256: want.sha256,
      cached: false,
    })
    expect((await readFile(pulled.value.path)).equals(await readFile(model('tiny-target.gguf')))).toBe(true)
    expect(progress.at(-1)).toMatchObject({ repo: 'test-org/Tiny-GGUF', file: want.path, bytes: want.size, total: want.size })
    expect(await core.handlers['models:pull']('test-org/Tiny-GGUF', 'tiny-target-Q4_K_M.gguf')).toMatchObject({
      ok: true,
      value: { cached: true },
    })
    expect(await core.handlers['models:pull']('test-org/Gated-GGUF', null)).toEqual({
      ok: false,
      error: {
        kind: 'model',
        sentence:
          `test-org/Gated-GGUF is gated: accept its terms on ${hub.origin}/test-org/Gated-GGUF, then set HF_TOKEN to a token of that ` +
          `account and try again.`,
      },
    })
    expect(await core.handlers['models:pull']('nonsense', null)).toMatchObject({
      ok: false,
      error: expect.objectContaining({ sentence: expect.stringMatching(/is not a Hugging Face repo name/) }),
    })
  })
})

describe('models:apply-recipe over the core', () => {
  it('lists the recipe, pulls both files with progress and stores the fitted profile on the llama-server it finds', async () => {
    const recipes = await core.handlers['models:recipes']()
    expect(recipes).toEqual([
      expect.objectContaining({
        id: 'qwen36-35b-a3b-8gb',
        target: 'unsloth/Qwen3.6-35B-A3B-GGUF:Q4_K_M',
        draft: 'unsloth/Qwen3.5-0.8B-GGUF:Q4_K_M',
      }),
    ])
    const path = process.env.PATH
    process.env.PATH = `${join(llamaServerBin(), '..')}:${path ?? ''}` // the llama-server discovery finds
    onTestFinished(() => {
      process.env.PATH = path
    })
    progress.length = 0
    const applied = await core.handlers['models:apply-recipe']('qwen36-35b-a3b-8gb')
    if (!applied.ok) throw new Error(applied.error.sentence)
    expect(new Set(progress.map((p) => p.repo))).toEqual(new Set(['unsloth/Qwen3.6-35B-A3B-GGUF', 'unsloth/Qwen3.5-0.8B-GGUF']))
    const profile = await core.handlers['profiles:get'](applied.value.profileId)
    expect(profile?.binary).toBe(llamaServerBin())
    expect(profile?.model).toMatch(/models--unsloth--Qwen3\.6-35B-A3B-GGUF\/snapshots\/.+\/Qwen3\.6-35B-A3B-Q4_K_M\.gguf$/)
    expect(profile?.draftModel).toMatch(/Qwen3\.5-0\.8B-Q4_K_M\.gguf$/)
    expect(profile?.settings.nCpuMoe).toBe(applied.value.nCpuMoe)
    expect(await core.handlers['models:apply-recipe']('nope')).toEqual({
      ok: false,
      error: expect.objectContaining({ sentence: 'No recipe "nope": choose one of the listed setups.' }),
    })
  })
})
