import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { fitCommand } from '../cli/commands/fit'
import { UsageError } from '../cli/cli-error'
import type { FitReport } from '../contract/fit'
import { ProfileStore } from '../profiles/store'
import { importCommand } from '../profiles/import-command'
import { MODELS as MODELS_DIR } from '../../test/helpers/paths'
import { cliIo } from '../../test/helpers/cli-io'

const home = mkdtempSync(join(tmpdir(), 'llama-tray-fit-cli-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

async function run(args: string[]): Promise<{ code: number; out: string }> {
  const io = cliIo(home)
  const code = await fitCommand.run(args, io)
  return { code, out: io.out() }
}

const target = resolve(MODELS_DIR, 'tiny-target.gguf')
const tinyDraft = resolve(MODELS_DIR, 'tiny-draft.gguf')

describe('llama-tray fit', () => {
  it('--json without a budget estimates the given placement only', async () => {
    const { code, out } = await run([target, '--ctx', '4096', '--parallel', '1', '--n-gpu-layers', '0', '--json'])
    expect(code).toBe(0)
    const r = JSON.parse(out) as FitReport
    expect(r).toMatchObject({ nCpuMoe: 0, fits: null, budgetMiB: null, draft: null })
    expect(r.gpu.totalMiB).toBe(0)
    expect(r.host).toMatchObject({ weightsMiB: 6.11, kvMiB: 10, recurrentMiB: 30.53 })
  })

  it('with --vram-mib it searches --n-cpu-moe and reports the draft separately', async () => {
    const { code, out } = await run([
      target,
      '--draft',
      tinyDraft,
      '--vram-mib',
      '1600',
      '--headroom-mib',
      '1536',
      '--ctx',
      '8192',
      '--parallel',
      '1',
      '--json',
    ])
    const r = JSON.parse(out) as FitReport
    expect(code).toBe(r.fits ? 0 : 1)
    expect(r.budgetMiB).toBe(64)
    expect(r.draft).not.toBeNull()
    expect(r.candidates.length).toBeGreaterThan(0)
    expect(r.candidates[r.candidates.length - 1]?.nCpuMoe).toBe(r.nCpuMoe)
    expect(r.total.gpu.totalMiB).toBeCloseTo(r.gpu.totalMiB + (r.draft?.gpu.totalMiB ?? 0), 1)
  })

  it('prints a readable table', async () => {
    const { out } = await run([target, '--vram-mib', '4000', '--ctx', '4096'])
    expect(out).toMatch(/GPU total/)
    expect(out).toMatch(/Fits: --n-cpu-moe 0/)
  })

  it('reads a stored profile', async () => {
    const store = await ProfileStore.open(home)
    const profile = importCommand(`llama-server -m ${target} -c 16384 -np 2 -ctk q8_0 -ctv q8_0 --n-cpu-moe 4`, { name: 'tiny' })
    await store.upsert(profile)
    const { out } = await run([profile.id, '--json'])
    const r = JSON.parse(out) as FitReport
    expect(r.placement).toMatchObject({ ctx: 16384, parallel: 2, cacheTypeK: 'q8_0', nCpuMoe: 4 })
  })

  it('a stored profile gets its draft in every spelling llama-server takes (-md, --model-draft, --spec-draft-model)', async () => {
    const store = await ProfileStore.open(home)
    for (const flag of ['-md', '--model-draft', '--spec-draft-model']) {
      const profile = importCommand(`llama-server -m ${target} ${flag} ${tinyDraft} -c 4096 -np 1`, { name: `draft ${flag}` })
      await store.upsert(profile)
      const { out } = await run([profile.id, '--json'])
      const r = JSON.parse(out) as FitReport
      expect(r.draft, flag).not.toBeNull()
      expect(r.draft?.gpu.weightsMiB, flag).toBeGreaterThan(0)
    }
  })

  it('bad input is a one-line usage error', async () => {
    writeFileSync(join(home, 'junk.gguf'), 'not a model')
    await expect(run([join(home, 'junk.gguf')])).rejects.toThrow(UsageError)
    await expect(run([join(home, 'missing.gguf')])).rejects.toThrow(/does not exist/)
    await expect(run([])).rejects.toThrow(/needs one model/)
    await expect(run(['no-such-profile'])).rejects.toThrow(/no profile/)
    await expect(run([target, '--cache-type-k', 'turbo4'])).rejects.toThrow(/unsupported cache type/)
    await expect(run([target, '--gpu', 'auto', '--vram-mib', '10'])).rejects.toThrow(/either/)
  })
})
