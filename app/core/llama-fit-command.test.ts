import { problem } from '../contract/problem'
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Result } from '../contract/commands'
import type { FitEstimate } from '../contract/fit'
import { qwen36MoeGguf } from '../../test/helpers/synthetic/qwen36-shapes'
import { writeSyntheticGguf } from '../../test/helpers/synthetic/write-gguf'
import { importCommand } from '../profiles/import-command'
import { fitProfile } from '../profiles/profile-fit'
import { ProfileStore } from '../profiles/store'
import { LLAMA_FIT_RECORDINGS } from '../../test/helpers/paths'
import { llamaFitPlan } from './llama-fit-command'

const home = mkdtempSync(join(tmpdir(), 'llama-tray-llama-fit-cmd-'))
const REC = LLAMA_FIT_RECORDINGS
afterAll(() => rmSync(home, { recursive: true, force: true }))

const withTool = join(home, 'with-tool')
const withoutTool = join(home, 'without-tool')
beforeAll(async () => {
  const model = join(home, 'Qwen3.6-35B-A3B-Q4_K_M.gguf')
  await writeSyntheticGguf(model, qwen36MoeGguf())
  for (const dir of [withTool, withoutTool]) {
    mkdirSync(dir)
    writeFileSync(join(dir, 'llama-server'), '')
  }
  // The real llama-fit-params needs a GPU; this stand-in replays what it printed on the H200.
  const tool = join(withTool, 'llama-fit-params')
  writeFileSync(
    tool,
    `#!${process.execPath}\nprocess.stdout.write(${JSON.stringify(readFileSync(join(REC, 'fitp-seed.out'), 'utf8'))}); ` +
      `process.stderr.write(${JSON.stringify(readFileSync(join(REC, 'fitp-seed.err'), 'utf8'))})\n`,
  )
  chmodSync(tool, 0o755)
  const store = await ProfileStore.open(home)
  const flags = `-m ${model} -ngl 999 --n-cpu-moe 33 -c 65536 -np 1 -ctk q4_0 -ctv q4_0`
  await store.upsert(importCommand(`${join(withTool, 'llama-server')} ${flags}`, { name: 'with-tool' }))
  await store.upsert(importCommand(`${join(withoutTool, 'llama-server')} ${flags}`, { name: 'without-tool' }))
})

// Our estimate against an 8 GB laptop GPU's free memory, as the core's fit:estimate gives it.
const estimate = async (id: string): Promise<Result<FitEstimate>> => ({
  ok: true,
  value: { report: await fitProfile(home, id, { freeVramMiB: 8188, headroomMiB: 1536 }), freeVramMiB: 8188, measuredServerGpuMiB: null },
})

describe('fit:llama-plan (the fit panel’s “Ask llama.cpp’s own fit”)', () => {
  it('gives llama.cpp’s plan and the comparison sentences for a profile', async () => {
    const r = await llamaFitPlan(home, 'with-tool', estimate, 1536)
    if (!r.ok) throw new Error(r.error.sentence)
    expect(r.value.plan).toMatchObject({ outcome: 'fitted', cpuExpertLayers: 33 })
    expect(r.value.lines[0]).toContain("llama.cpp's own fit (-fitt 1536): experts of 33 layers on the CPU")
    expect(r.value.lines).toContain('  ours: --n-cpu-moe 33, 6263.84 MiB.')
  })

  it('a llama-server without llama-fit-params: one sentence with where to get it', async () => {
    const r = await llamaFitPlan(home, 'without-tool', estimate, 1536)
    expect(r).toEqual({
      ok: false,
      error: {
        kind: 'fit',
        sentence:
          `llama.cpp's own fit cannot be asked: there is no llama-fit-params beside ${join(withoutTool, 'llama-server')} (llama.cpp's ` +
          `release archives ship it: installing llama.cpp from Llama Tray gets one).`,
      },
    })
  })

  it('an unknown profile is the estimate’s own error', async () => {
    const missing = problem('profile', 'no profile "nope"')
    const r = await llamaFitPlan(home, 'nope', async () => ({ ok: false, error: missing }), 1536)
    expect(r).toEqual({ ok: false, error: missing })
  })
})
