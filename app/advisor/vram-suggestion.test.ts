import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedModels, type SeedModels } from '../../test/support/advisor/fixtures'
import { suggestShorterContext, suggestVramFix } from './vram-suggestion'

// The low-VRAM warning's fix, from the fit: more experts on the CPU where they can move, else a shorter context.
// Sparse GGUFs with the real Qwen3.6-35B-A3B and Qwen3.5-0.8B shapes.

let m: SeedModels
beforeAll(async () => {
  m = await seedModels()
})
afterAll(async () => {
  await rm(m.dir, { recursive: true, force: true })
})

describe('the low-VRAM fix', () => {
  it('moves experts to the CPU when the model has them on the GPU', () => {
    const s = suggestVramFix(m.qwen36, null, ['-m', m.qwen36Path, '-ngl', '99', '--n-cpu-moe', '30', '-c', '65536'], 700, 1536)
    expect(s?.change).toMatch(/^--n-cpu-moe \d+$/)
    expect(s?.fix.removeArgs).toContain('--n-cpu-moe')
    expect(s?.savedMiB).toBeGreaterThanOrEqual(1536 - 700)
  })

  it('with every expert on the CPU already, shortens the context by enough for the headroom', () => {
    const args = ['-m', m.qwen36Path, '-ngl', '99', '--cpu-moe', '-c', '262144']
    const s = suggestVramFix(m.qwen36, null, args, 700, 1536)
    expect(s).not.toBeNull()
    expect(s?.change).toMatch(/^-c \d+$/)
    const ctx = Number(s?.fix.addArgs[1])
    expect(ctx).toBeLessThan(262144)
    expect(ctx).toBeGreaterThanOrEqual(2048)
    expect(s?.fix).toEqual({
      label: `Use a shorter context (-c ${ctx})`,
      removeArgs: expect.arrayContaining(['-c']),
      addArgs: ['-c', String(ctx)],
    })
    expect(s?.savedMiB).toBeGreaterThanOrEqual(1536 - 700)
    // The longest that does: twice that context would not give enough back.
    if (ctx * 2 < 262144)
      expect(suggestShorterContext(m.qwen36, null, [...args.slice(0, -1), String(ctx * 4)], 700, 1536)?.change).toBe(`-c ${ctx * 2}`)
  })

  it('a dense model gets the shorter context', () => {
    const s = suggestVramFix(m.draft, null, ['-m', m.draftPath, '-ngl', '99', '-c', '262144'], 1200, 1536)
    expect(s?.change).toMatch(/^-c \d+$/)
  })

  it('no fix where the context is not set or even the shortest would not do', () => {
    expect(suggestShorterContext(m.draft, null, ['-m', m.draftPath, '-ngl', '99'], 700, 1536)).toBeNull()
    expect(suggestShorterContext(m.draft, null, ['-m', m.draftPath, '-ngl', '99', '-c', '4096'], 0, 100_000)).toBeNull()
  })
})
