import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openNvml } from '../app/telemetry/gpu/nvml'
import { SMI_FIELDS } from '../app/telemetry/gpu/smi-fields'
import { measureNodeNvidiaSmi, measureNvml, measureSmiOneShot, measureSmiStream } from '../app/telemetry/measure/gpu-cost'
import type { BenchRow } from './bench-row'

// Resolved from the working directory (npm run bench runs at the repository root): this file is bundled into out/bench.
const fakeSmiDir = path.resolve('test', 'fixtures', 'fake-nvidia-smi')
const fakeSmi = path.join(fakeSmiDir, 'nvidia-smi')
const fakeNvmlSource = path.resolve('app', 'telemetry', 'gpu', 'nvml-fake', 'fake-libnvidia-ml.c')

/**
 * CPU time per GPU sample of each way of reading the GPU that works on this
 * machine, in the same run, against the fakes (the fake nvidia-smi is a Node
 * script, so its own CPU says nothing about the real one: rows compare what
 * our process spends, plus the spawned children where that is the point).
 * Real-GPU figures: test/fixtures/nvidia-smi-h200-nvml/README.md.
 */
export async function benchTelemetry(): Promise<BenchRow[]> {
  const group = 'telemetry'
  const env = { ...process.env, PATH: `${fakeSmiDir}${path.delimiter}${process.env.PATH ?? ''}`, FAKE_SMI: '' }
  const node = await measureNodeNvidiaSmi(10, fakeSmiDir)
  const stream = await measureSmiStream(fakeSmi, SMI_FIELDS, 50, 60, env)
  const oneShot = await measureSmiOneShot(fakeSmi, SMI_FIELDS, 10, env)
  const rows: BenchRow[] = [
    { group, name: 'GPU sample: long-lived nvidia-smi -lms reader, our process', value: stream.selfMs, unit: 'ms CPU', baseline: node.selfMs, baselineName: 'node-nvidia-smi way, our process (exec + xml2js)' },
    { group, name: 'GPU sample: nvidia-smi spawned per sample, ours + child (fake)', value: oneShot.totalMs, unit: 'ms CPU', baseline: node.totalMs, baselineName: 'node-nvidia-smi way, ours + shell + child (fake)' },
    { group, name: 'GPU sample: node-nvidia-smi way, our process', value: node.selfMs, unit: 'ms CPU' },
  ]
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-nvml-'))
  try {
    const lib = path.join(dir, 'libnvidia-ml.so.1')
    execFileSync('gcc', ['-shared', '-fPIC', '-O2', '-o', lib, fakeNvmlSource], { stdio: 'ignore' })
    const nvml = openNvml([lib])
    if (nvml.ok) {
      const c = measureNvml(nvml.nvml, 20_000)
      rows.unshift({ group, name: 'GPU sample: NVML through koffi (fake libnvidia-ml: FFI cost only)', value: c.selfMs, unit: 'ms CPU', baseline: node.selfMs, baselineName: 'node-nvidia-smi way, our process (exec + xml2js)' })
      nvml.nvml.close()
    }
  } catch {
    // no gcc here: the NVML row is left out
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}
