import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import type { BenchRow } from './bench-row'
import { formatCommandLine } from '../app/lib/command-line'
import { FAKE_SMI_DIR, REPO_ROOT } from '../test/helpers/paths'
import { FakeSysfs } from '../test/support/platform/fake-sysfs'

// `npm run bench idle`, the case "GPU asleep" (issue #37): `llama-tray run --cmd` with a CPU-only server on a faked
// laptop (LLAMA_TRAY_SYSFS) whose NVIDIA GPU is in D3cold, against the same run with the GPU in D0 as the
// same-run baseline. GPU queries are counted where they happen: the fake NVML logs each call that reaches a device,
// the stand-in nvidia-smi records each start. The goal: 0 per minute while asleep. Kept apart from idle.bench.ts,
// which measures CPU time.

const GPU = '0000:01:00.0'

interface Counts {
  readonly nvmlCallsPerMin: number
  readonly smiStartsPerMin: number
}

async function countQueries(cli: string, cmd: string, state: 'D3cold' | 'D0', seconds: number, work: string): Promise<Counts> {
  const sysfs = new FakeSysfs()
  sysfs.pciDevice(GPU, '0x10de', '0x030000', state, state === 'D0' ? 'active' : 'suspended')
  const dir = mkdtempSync(join(work, `${state}-`))
  const calls = join(dir, 'nvml-calls.log')
  const pids = join(dir, 'smi-pids')
  mkdirSync(pids)
  const path = `${FAKE_SMI_DIR}${delimiter}${process.env.PATH ?? ''}`
  const base = { ...process.env, LLAMA_TRAY_SYSFS: sysfs.root, PATH: path, FAKE_SMI: '', LLAMA_TRAY_PORT: '0' }
  // One run reads NVML (the fake library on the loader's path), the other nvidia-smi (no NVML to load).
  const runs = [
    { LD_LIBRARY_PATH: join(work, 'nvml'), FAKE_NVML_CALLS: calls, LLAMA_TRAY_HOME: join(dir, 'home-nvml') },
    { FAKE_SMI_PID_DIR: pids, LLAMA_TRAY_HOME: join(dir, 'home-smi') },
  ].map((env) =>
    spawn(process.execPath, [cli, 'run', '--cmd', cmd, '--json', '--duration', String(seconds)], {
      env: { ...base, ...env },
      stdio: 'ignore',
    }),
  )
  await Promise.all(runs.map((child) => new Promise((r) => child.on('close', r))))
  sysfs.remove()
  const nvml = existsSync(calls) ? readFileSync(calls, 'utf8').split('\n').filter(Boolean).length : 0
  const perMin = (n: number): number => (n * 60) / seconds
  return { nvmlCallsPerMin: perMin(nvml), smiStartsPerMin: perMin(readdirSync(pids).length) }
}

/** GPU queries per minute with the GPU asleep, beside the same runs with it awake. */
export async function benchGpuAsleep(bin: string, model: string, seconds = Number(process.env.ASLEEP_SECONDS ?? 60)): Promise<BenchRow[]> {
  const cli = resolve('out', 'cli', 'llama-tray.mjs')
  if (!existsSync(cli)) throw new Error('out/cli/llama-tray.mjs is missing: npm run build:cli first')
  const work = mkdtempSync(join(tmpdir(), 'bench-gpu-asleep-'))
  try {
    mkdirSync(join(work, 'nvml'))
    const source = join(REPO_ROOT, 'app', 'telemetry', 'gpu', 'nvml-fake', 'fake-libnvidia-ml.c')
    execFileSync('gcc', ['-shared', '-fPIC', '-O2', '-o', join(work, 'nvml', 'libnvidia-ml.so.1'), source])
    const cmd = formatCommandLine([bin, '-m', model, '-c', '1024', '-np', '1', '-t', '1'])
    const asleep = await countQueries(cli, cmd, 'D3cold', seconds, work)
    const awake = await countQueries(cli, cmd, 'D0', seconds, work)
    const row = (name: string, value: number, baseline: number): BenchRow => ({
      group: 'idle',
      name: `GPU asleep (D3cold): ${name}`,
      value,
      unit: '/min',
      baseline,
      baselineName: 'the same run, GPU awake (D0)',
    })
    return [
      row('NVML calls', asleep.nvmlCallsPerMin, awake.nvmlCallsPerMin),
      row('nvidia-smi starts', asleep.smiStartsPerMin, awake.smiStartsPerMin),
    ]
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
