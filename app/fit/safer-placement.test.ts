import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readGgufModel, type GgufModel } from './gguf-model'
import { describeChanges, saferPlacement } from './safer-placement'
import { qwen35SmallGguf, qwen36MoeGguf } from '../../test/helpers/synthetic/qwen36-shapes'
import { writeSyntheticGguf } from '../../test/helpers/synthetic/write-gguf'
import { REPO_ROOT } from '../../test/helpers/paths'

const tmp = mkdtempSync(join(tmpdir(), 'llama-tray-safer-'))
let moe: GgufModel
let dense: GgufModel

beforeAll(async () => {
  await writeSyntheticGguf(join(tmp, 'moe.gguf'), qwen36MoeGguf())
  await writeSyntheticGguf(join(tmp, 'dense.gguf'), qwen35SmallGguf())
  moe = await readGgufModel(join(tmp, 'moe.gguf'))
  dense = await readGgufModel(join(tmp, 'dense.gguf'))
})
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

// The recorded CUDA out-of-memory at load: this launch (2,999 MiB free there; here a laptop-sized 5,000 MiB with the default headroom).
const RECORDED = ['-m', 'M', '-ngl', '999', '--n-cpu-moe', '10', '-c', '8192', '-np', '1']

describe('saferPlacement after an out-of-memory load', () => {
  it('moves more experts to the CPU, just enough for the free memory now, in the command’s own spelling', () => {
    const safer = saferPlacement(RECORDED, moe, null, { freeVramMiB: 5000, headroomMiB: 1536 })
    expect(safer).not.toBeNull()
    const s = safer!
    expect(s.changes).toHaveLength(1)
    expect(s.changes[0]).toMatchObject({ name: 'n-cpu-moe', flag: '--n-cpu-moe', from: '10' })
    const chosen = Number(s.changes[0]!.to)
    expect(chosen).toBeGreaterThan(10)
    expect(s.afterMiB).toBeLessThanOrEqual(s.budgetMiB)
    expect(s.beforeMiB).toBeGreaterThan(s.budgetMiB)
    expect(s.args).toEqual(['-m', 'M', '-ngl', '999', '--n-cpu-moe', String(chosen), '-c', '8192', '-np', '1'])
    // One expert layer fewer on the CPU would not have fitted: the retry keeps as much on the GPU as it can.
    const oneLess = saferPlacement([...RECORDED.slice(0, 5), String(chosen - 2), ...RECORDED.slice(6)], moe, null, {
      freeVramMiB: 5000,
      headroomMiB: 1536,
    })
    expect(oneLess?.changes[0]?.to).toBe(String(chosen))
    expect(describeChanges(s.changes)).toBe(`--n-cpu-moe ${chosen} (was 10)`)
  })

  it('adds --n-cpu-moe when the command had none, and keeps -ncmoe when that is how it was spelled', () => {
    const added = saferPlacement(['-m', 'M', '-ngl', '99', '-c', '8192', '-np', '1'], moe, null, { freeVramMiB: 3000, headroomMiB: 512 })
    expect(added?.args.slice(-2)[0]).toBe('--n-cpu-moe')
    const short = saferPlacement(['-m', 'M', '-ncmoe', '2', '-ngl', '99', '-c', '8192', '-np', '1'], moe, null, {
      freeVramMiB: 3000,
      headroomMiB: 512,
    })
    expect(short?.args[2]).toBe('-ncmoe')
    expect(short?.changes[0]).toMatchObject({ flag: '-ncmoe', from: '2' })
  })

  it('offloads fewer layers of a dense model', () => {
    const safer = saferPlacement(['-m', 'D', '-ngl', '99', '-c', '4096', '-np', '1'], dense, null, {
      freeVramMiB: 400,
      headroomMiB: 0,
      runtimeMiB: 0,
    })
    expect(safer?.changes).toEqual([{ name: 'gpu-layers', flag: '-ngl', from: '99', to: expect.stringMatching(/^\d+$/) }])
    const ngl = Number(safer!.changes[0]!.to)
    expect(ngl).toBeGreaterThan(0)
    expect(ngl).toBeLessThan(dense.blockCount + 1)
    expect(safer!.afterMiB).toBeLessThanOrEqual(400)
  })

  it('gives null when nothing fits, or when nothing is on the GPU', () => {
    expect(saferPlacement(RECORDED, moe, null, { freeVramMiB: 100, headroomMiB: 512 })).toBeNull()
    expect(saferPlacement(['-m', 'M', '-ngl', '0'], moe, null, { freeVramMiB: 2999, headroomMiB: 0 })).toBeNull()
  })
})

// The real retry on an H200 held to 6,006 MiB free (test/fixtures/llama-server-cuda-h200/oom-retry-h200.*): the same
// choice from the same inputs, and what the retried server really held (3,846 MiB) within the budget it was fitted to.
describe('the recorded retry on a real GPU', () => {
  it('chooses the --n-cpu-moe the real run used, and the server held less than the budget', () => {
    const safer = saferPlacement(['-m', 'M', '-ngl', '999', '--n-cpu-moe', '10', '-c', '8192', '-np', '1'], moe, null, {
      freeVramMiB: 6006,
      headroomMiB: 1536,
    })
    expect(safer?.changes).toEqual([{ name: 'n-cpu-moe', flag: '--n-cpu-moe', from: '10', to: '37' }])
    expect(safer?.beforeMiB).toBe(16472)
    expect(safer?.afterMiB).toBe(4082)
    const measuredMiB = 3846
    expect(measuredMiB).toBeLessThanOrEqual(safer!.budgetMiB)
    const log = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'llama-server-cuda-h200', 'oom-retry-h200.log'), 'utf8')
    expect(log).toContain('cudaMalloc failed: out of memory')
    expect(log).toMatch(/started \S+ -m \S+ -ngl 999 --n-cpu-moe 37 -c 8192/)
  })
})
