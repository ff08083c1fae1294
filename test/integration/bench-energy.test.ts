import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { REPO_ROOT } from '../helpers/paths'
import { addProfile, SMALL, tinyTarget } from '../support/core/tiny-core'

// Issue #37: `llama-tray bench` reports the GPU's energy per 1,000 generated tokens beside tok/s. This machine has no
// NVIDIA GPU: one bench reads a fake NVML (its power and total-energy counter, app/telemetry/gpu/nvml-fake) and
// shows a figure; the same bench without it says "n/a". The real llama-server generates in both.

const work = mkdtempSync(join(tmpdir(), 'llama-tray-bench-energy-'))
let id = ''
beforeAll(async () => {
  mkdirSync(join(work, 'nvml'))
  const source = join(REPO_ROOT, 'app', 'telemetry', 'gpu', 'nvml-fake', 'fake-libnvidia-ml.c')
  execFileSync('gcc', ['-shared', '-fPIC', '-O2', '-o', join(work, 'nvml', 'libnvidia-ml.so.1'), source])
  id = await addProfile(work, 'tiny energy', [llamaServerBin(), '-m', tinyTarget, ...SMALL])
}, 300_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** The bench table's cell under `column` in the first result's row. */
function cell(table: string, column: string): string | undefined {
  const lines = table.split('\n')
  const header = lines[0] ?? ''
  const at = header.indexOf(column)
  const row = lines[2] ?? ''
  return at < 0 ? undefined : row.slice(at).split(/\s{2,}/)[0]
}

describe('bench reports GPU energy per 1,000 tokens beside tok/s', () => {
  it('gives a figure where a GPU energy source exists (fake NVML), and "n/a" where none does', async () => {
    const args = ['--home', work, 'bench', id, '--runs', '1', '--tokens', '16']
    const withGpu = await runCli(args, { LD_LIBRARY_PATH: join(work, 'nvml') })
    expect(withGpu.code, withGpu.stderr).toBe(0)
    const header = withGpu.stdout.split('\n')[0] ?? ''
    expect(header.indexOf('GPU energy /1k tok')).toBeGreaterThan(header.lastIndexOf('tok/s') - 20) // beside the rates
    expect(cell(withGpu.stdout, 'GPU energy /1k tok')).toMatch(/^\d+(\.\d)? (J|Wh)$/)

    const withoutGpu = await runCli(args)
    expect(withoutGpu.code, withoutGpu.stderr).toBe(0)
    expect(cell(withoutGpu.stdout, 'GPU energy /1k tok')).toBe('n/a')
  }, 600_000)
})
