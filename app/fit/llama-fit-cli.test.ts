import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fitCommand } from '../cli/commands/fit'
import type { FitReport, LlamaFitPlan } from '../contract/fit'
import { LLAMA_FIT_RECORDINGS } from '../../test/helpers/paths'
import { qwen36MoeGguf } from '../../test/helpers/synthetic/qwen36-shapes'
import { writeSyntheticGguf } from '../../test/helpers/synthetic/write-gguf'
import { cliIo } from '../../test/helpers/cli-io'

const home = mkdtempSync(join(tmpdir(), 'llama-tray-llama-fit-cli-'))
const bin = join(home, 'bin')
const modelPath = join(home, 'Qwen3.6-35B-A3B-Q4_K_M.gguf')
const REC = LLAMA_FIT_RECORDINGS
afterAll(() => rmSync(home, { recursive: true, force: true }))

beforeAll(async () => {
  await writeSyntheticGguf(modelPath, qwen36MoeGguf())
  mkdirSync(bin)
  writeFileSync(join(bin, 'llama-server'), '')
  // llama-fit-params needs a GPU to plan anything: this stand-in replays what the real one printed on the H200,
  // and records the arguments it was given.
  const tool = join(bin, 'llama-fit-params')
  const out = readFileSync(join(REC, 'fitp-seed.out'), 'utf8')
  const err = readFileSync(join(REC, 'fitp-seed.err'), 'utf8')
  writeFileSync(
    tool,
    `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(join(home, 'argv.json'))}, ` +
      `JSON.stringify(process.argv.slice(2)))\nprocess.stdout.write(${JSON.stringify(out)}); process.stderr.write(` +
      `${JSON.stringify(err)})\n`,
  )
  chmodSync(tool, 0o755)
})

async function run(args: string[]): Promise<{ code: number; out: string }> {
  const io = cliIo(home)
  const code = await fitCommand.run(args, io)
  return { code, out: io.out() }
}

const SEED = [
  '--ctx',
  '65536',
  '--parallel',
  '1',
  '--cache-type-k',
  'q4_0',
  '--cache-type-v',
  'q4_0',
  '--vram-mib',
  '8188',
  '--headroom-mib',
  '1536',
]

describe('llama-tray fit --llama-fit: llama.cpp’s own plan beside ours', () => {
  it('prints both placements and says which keeps the headroom', async () => {
    const { code, out } = await run([modelPath, ...SEED, '--llama-fit', '--binary', join(bin, 'llama-server')])
    expect(code).toBe(0)
    expect(out).toContain(
      "llama.cpp's own fit (-fitt 1536): experts of 33 layers on the CPU (one of them partly), 6048 MiB on CUDA0 + 650 MiB runtime ≈ " +
        '6698 MiB; fitting took 9.92 s, spent at every start.',
    )
    expect(out).toContain('  ours: --n-cpu-moe 33, 6263.84 MiB.')
    expect(out).toContain("Ours keeps the headroom; llama.cpp's plan would use 46 MiB of it")
    const argv = JSON.parse(readFileSync(join(home, 'argv.json'), 'utf8')) as string[]
    expect(argv).toEqual(['-m', modelPath, '-c', '65536', '-np', '1', '-ctk', 'q4_0', '-ctv', 'q4_0', '-fitt', '1536', '-lv', '4'])
  })

  it('--json carries the plan as llamaFit', async () => {
    const { out } = await run([modelPath, ...SEED, '--llama-fit', '--binary', join(bin, 'llama-server'), '--json'])
    const r = JSON.parse(out) as FitReport & { llamaFit: LlamaFitPlan }
    expect(r.nCpuMoe).toBe(33)
    expect(r.llamaFit).toMatchObject({ outcome: 'fitted', cpuExpertLayers: 33, tookS: 9.92 })
  })

  it('a llama-server without llama-fit-params beside it: one sentence saying where it comes from', async () => {
    await expect(run([modelPath, ...SEED, '--llama-fit', '--binary', '/nowhere/llama-server'])).rejects.toThrow(
      /No llama-fit-params beside \/nowhere\/llama-server, which --llama-fit runs: take it from llama.cpp's release archive/,
    )
    await expect(run([modelPath, ...SEED, '--llama-fit'])).rejects.toThrow(/--llama-fit needs the llama-server/)
  })
})
