import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { LLAMA_FIT_RECORDINGS } from '../../test/helpers/paths'
import { FitError } from './fit-error'
import { dryRunArgs, fitParamsBeside, llamaFitDryRun, type RunProcess } from './llama-fit-dry-run'

const DIR = LLAMA_FIT_RECORDINGS
const read = (name: string): string => readFileSync(join(DIR, name), 'utf8')
const tmp = mkdtempSync(join(tmpdir(), 'llama-tray-fit-dry-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const PROFILE = [
  '-m',
  'M.gguf',
  '-ngl',
  '999',
  '--n-cpu-moe',
  '33',
  '-c',
  '65536',
  '-np',
  '1',
  '-ctk',
  'q4_0',
  '-ctv',
  'q4_0',
  '-md',
  'D.gguf',
  '-ngld',
  '99',
  '--port',
  '8080',
  '-fa',
  'on',
]

describe('llama.cpp’s fit as a dry run (llama-fit-params)', () => {
  it('passes the memory flags, leaves out offload, draft and server flags, and sets the target', () => {
    expect(dryRunArgs(PROFILE, 1536)).toEqual([
      '-m',
      'M.gguf',
      '-c',
      '65536',
      '-np',
      '1',
      '-ctk',
      'q4_0',
      '-ctv',
      'q4_0',
      '-fa',
      'on',
      '-fitt',
      '1536',
      '-lv',
      '4',
    ])
  })

  it('reads the plan from what the H200 run printed', async () => {
    let called: readonly string[] = []
    const run: RunProcess = async (_bin, args) => {
      called = args
      return { code: 0, stdout: read('fitp-seed.out'), stderr: read('fitp-seed.err') }
    }
    const plan = await llamaFitDryRun('/x/llama-fit-params', PROFILE, 1536, run)
    expect(called).toContain('-fitt')
    expect(plan).toMatchObject({ outcome: 'fitted', cpuExpertLayers: 33, partialLayer: true })
  })

  it('a run that prints no plan is one clear error', async () => {
    const run: RunProcess = async () => ({ code: 1, stdout: '', stderr: read('fitp-seed-draft.err') })
    await expect(llamaFitDryRun('/x/llama-fit-params', PROFILE, 1536, run)).rejects.toThrow(
      new FitError('llama-fit-params ended (exit 1) without a fit plan: error: invalid argument: -md'),
    )
  })

  it('finds llama-fit-params beside llama-server, with .exe on Windows builds', () => {
    writeFileSync(join(tmp, 'llama-fit-params'), '')
    writeFileSync(join(tmp, 'llama-fit-params.exe'), '')
    expect(fitParamsBeside(join(tmp, 'llama-server'))).toBe(join(tmp, 'llama-fit-params'))
    expect(fitParamsBeside(join(tmp, 'llama-server.exe'))).toBe(join(tmp, 'llama-fit-params.exe'))
    expect(fitParamsBeside('/nowhere/llama-server')).toBeNull()
  })

  it('runs a real process with an argument array (no shell) and reads both streams', async () => {
    // A stand-in executable that echoes its arguments and prints the recorded output: the real tool needs a GPU.
    const bin = join(tmp, 'bin', 'llama-fit-params')
    mkdirSync(join(tmp, 'bin'))
    writeFileSync(
      bin,
      `#!${process.execPath}\nprocess.stdout.write(${JSON.stringify(read('fitp-seed.out'))}); ` +
        `process.stderr.write(JSON.stringify(process.argv.slice(2)) + '\\n' + ${JSON.stringify(read('fitp-seed.err'))})\n`,
    )
    chmodSync(bin, 0o755)
    const plan = await llamaFitDryRun(bin, ['-m', 'a model; rm -rf ~', '-c', '4096'], 1536)
    expect(plan.cpuExpertLayers).toBe(33)
  })
})
