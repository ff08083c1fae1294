import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { FAKE_SERVER, REPO_ROOT } from '../../test/helpers/paths'
import { fakeGpuEnv, fakeGpuTelemetry } from '../../test/support/bench/fake-gpu'
import { runCli, startCli } from '../../test/helpers/cli'
import { waitUntil } from '../../test/helpers/processes'
import { formatCommandLine } from '../lib/command-line'
import { qwen36MoeGguf } from '../../test/helpers/synthetic/qwen36-shapes'
import { writeSyntheticGguf } from '../../test/helpers/synthetic/write-gguf'
import { diagnoseExit } from '../supervisor/diagnose'
import { LlamaTrayCore } from './llama-tray-core'
import { addProfile } from '../../test/support/core/tiny-core'
import type { ServerStatus } from '../contract/server-state'

// The real CUDA out-of-memory at load, recorded on an H200 with another program holding all but 2,999 MiB.
const OOM_LOG = join(REPO_ROOT, 'test', 'fixtures', 'llama-server-cuda-h200', 'err_cuda_oom_at_load_h200.log')
// An RTX 4060 Laptop (8,188 MiB) with 3,188 MiB taken by other programs: 5,000 MiB free before our server.
const LAPTOP = { totalMiB: 8188, idleMiB: 3188, serverMiB: 0, perGpuExpertLayerMiB: 0, layers: 40, draftMiB: 0 }

const tmp = mkdtempSync(join(tmpdir(), 'llama-tray-oom-'))
const modelPath = join(tmp, 'Qwen3.6-35B-A3B-Q4_K_M.gguf')
beforeAll(async () => {
  await writeSyntheticGguf(modelPath, qwen36MoeGguf())
})

let core: LlamaTrayCore | null = null
afterEach(async () => {
  await core?.dispose()
  core = null
})

async function coreWithLaptopGpu(gpu = LAPTOP): Promise<{ core: LlamaTrayCore; home: string; states: ServerStatus[] }> {
  const home = mkdtempSync(join(tmp, 'home-'))
  const telemetry = fakeGpuTelemetry(gpu, 100)
  await telemetry.start()
  const c = await LlamaTrayCore.create({ home, telemetry, supervisor: { healthIntervalMs: 50 } })
  core = c
  const states: ServerStatus[] = []
  c.on('server:state-changed', (s) => states.push(s))
  await expect.poll(() => c.snapshot().gpu?.devices[0]?.memoryFreeMiB ?? null, { timeout: 30_000 }).toBe(gpu.totalMiB - gpu.idleMiB)
  return { core: c, home, states }
}

const profileArgs = (fitsFrom: number): string[] => [
  FAKE_SERVER,
  '-m',
  modelPath,
  '-ngl',
  '999',
  '--n-cpu-moe',
  '10',
  '-c',
  '8192',
  '-np',
  '1',
  '--fake-mode',
  'oom-at-load',
  '--fake-log',
  OOM_LOG,
  '--fake-fits-from-ncmoe',
  String(fitsFrom),
]

describe('a load that runs out of GPU memory', () => {
  it('the recording reads as out of GPU memory for the weights', () => {
    const lines = readFileSync(OOM_LOG, 'utf8').split('\n')
    expect(diagnoseExit(1, null, lines).kind).toBe('out-of-memory-weights')
  })

  it('is retried once with the placement the fit chose for the free memory now, and runs; the profile is unchanged', async () => {
    const { core: c, home, states } = await coreWithLaptopGpu()
    const id = await addProfile(home, 'big-moe', profileArgs(11))
    const result = await c.startProfile(id)
    expect(result.ok).toBe(true)
    // The first launch failed for lack of memory, the second runs with more experts on the CPU.
    expect(states.filter((s) => s.state === 'errored').map((s) => s.lastExit?.kind)).toEqual(['out-of-memory-weights'])
    const retry = c.snapshot().placementRetry
    expect(retry?.profileId).toBe(id)
    const n = Number(retry!.args[retry!.args.indexOf('--n-cpu-moe') + 1])
    expect(n).toBeGreaterThan(10)
    expect(retry!.sentence).toMatch(
      new RegExp(
        `^The GPU ran out of memory loading the model \\(5,000 MiB free, about [\\d,]+ MiB needed\\), so it was started with ` +
          `--n-cpu-moe ${n} \\(was 10\\), about [\\d,]+ MiB\\.$`,
      ),
    )
    const stored = await c.handlers['profiles:get'](id)
    expect(stored?.settings.nCpuMoe).toBe(10)
    // A stop ends the notice: it describes the server that runs.
    await c.handlers['server:stop']()
    expect(c.snapshot().placementRetry ?? null).toBeNull()
  })

  it('never loops: when the safer placement fails too, the start ends errored with both', async () => {
    const { core: c, home, states } = await coreWithLaptopGpu()
    const id = await addProfile(home, 'never-fits', profileArgs(1000))
    const result = await c.startProfile(id)
    expect(result.ok).toBe(false)
    expect(states.filter((s) => s.state === 'errored').map((s) => s.lastExit?.kind)).toEqual([
      'out-of-memory-weights',
      'out-of-memory-weights',
    ])
    expect(result.ok ? '' : result.error.sentence).toMatch(
      /Out of GPU memory loading the model weights .*also after a retry \(The GPU ran out of memory/,
    )
    expect(c.snapshot().placementRetry ?? null).toBeNull()
  })

  it('when nothing fits even with every expert on the CPU, no retry: the sentence gives the numbers and what is left', async () => {
    // The same laptop GPU with other programs holding all but 900 MiB.
    const { core: c, home, states } = await coreWithLaptopGpu({ ...LAPTOP, idleMiB: LAPTOP.totalMiB - 900 })
    const id = await addProfile(home, 'no-room', profileArgs(11))
    const result = await c.startProfile(id)
    expect(result.ok).toBe(false)
    // One launch only: no placement was worth a retry.
    expect(states.filter((s) => s.state === 'errored').map((s) => s.lastExit?.kind)).toEqual(['out-of-memory-weights'])
    const sentence =
      /^Even with every expert on the CPU it needs about [\d,]+ MiB and 900 MiB are free: close other GPU programs or run it on the CPU with -ngl 0\.$/
    expect(result.ok ? '' : result.error.sentence).toMatch(sentence)
    expect(result.ok ? '' : result.error.details).toMatch(/with one layer on the GPU about [\d,]+ MiB/)
    // The header says the same, not the log's "move more experts to the CPU".
    const failure = c.snapshot().startFailure
    expect(failure?.profileId).toBe(id)
    expect(failure?.problem.sentence).toMatch(sentence)
    expect(failure?.problem.fix).toBeUndefined()
    expect(c.snapshot().placementRetry ?? null).toBeNull()
  })

  it('llama-tray run says what it changed and keeps running (the built CLI, nvidia-smi on PATH)', async () => {
    const home = mkdtempSync(join(tmp, 'cli-'))
    const env = fakeGpuEnv(LAPTOP)
    const imported = await runCli(['--home', home, 'profiles', 'import', '--name', 'big', '--', ...profileArgs(11)], env)
    expect(imported.code, imported.stderr).toBe(0)
    const cli = startCli(['--home', home, 'run', 'big', '--json', '--interval', '200'], env)
    const retried = (): string | undefined => cli.stdoutLines.find((l) => l.includes('"state":"ready"') && l.includes('"placementRetry":{'))
    await waitUntil(() => retried() !== undefined, 120_000, 'ready with the retry in the snapshot')
    const snapshot = JSON.parse(retried() as string) as { placementRetry: { args: string[]; sentence: string } }
    expect(formatCommandLine(snapshot.placementRetry.args)).toMatch(/--n-cpu-moe (1[1-9]|[2-9]\d)/)
    // The sentence comes once the start's result is in, which on a busy machine may be a tick after the snapshot.
    await waitUntil(() => cli.stderrLines.some((l) => l.includes('The profile is unchanged')), 120_000, 'the retry sentence')
    cli.child.kill('SIGINT')
    const result = await cli.done
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain(`llama-tray: ${snapshot.placementRetry.sentence} The profile is unchanged`)
    expect(result.stderr).not.toContain('hint:')
  }, 180_000)
})
