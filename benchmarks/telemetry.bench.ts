import { execFileSync } from 'node:child_process'
import { request } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openNvml } from '../app/telemetry/gpu/nvml'
import { SMI_FIELDS } from '../app/telemetry/gpu/smi-fields'
import { EnergyMeter, joulesPerThousandTokens } from '../app/telemetry/gpu/energy-meter'
import { measureNodeNvidiaSmi, measureNvml, measureSmiOneShot, measureSmiStream } from './measure/gpu-cost'
import { TelemetryService, type TelemetryOptions } from '../app/telemetry/telemetry-service'
import { FAKE_SMI_DIR } from '../test/helpers/paths'
import { median, type BenchRow } from './bench-row'
import { startBenchServer } from './bench-server'

const fakeSmiDir = FAKE_SMI_DIR
const fakeSmi = path.join(fakeSmiDir, 'nvidia-smi')
// Resolved from the working directory (npm run bench runs at the repository root): this file is bundled into out/bench.
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
    {
      group,
      name: 'GPU sample: long-lived nvidia-smi -lms reader, our process',
      value: stream.selfMs,
      unit: 'ms CPU',
      baseline: node.selfMs,
      baselineName: 'node-nvidia-smi way, our process (exec + xml2js)',
    },
    {
      group,
      name: 'GPU sample: nvidia-smi spawned per sample, ours + child (fake)',
      value: oneShot.totalMs,
      unit: 'ms CPU',
      baseline: node.totalMs,
      baselineName: 'node-nvidia-smi way, ours + shell + child (fake)',
    },
    { group, name: 'GPU sample: node-nvidia-smi way, our process', value: node.selfMs, unit: 'ms CPU' },
  ]
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-nvml-'))
  try {
    const lib = path.join(dir, 'libnvidia-ml.so.1')
    execFileSync('gcc', ['-shared', '-fPIC', '-O2', '-o', lib, fakeNvmlSource], { stdio: 'ignore' })
    const nvml = openNvml([lib])
    if (nvml.ok) {
      const c = measureNvml(nvml.nvml, 20_000)
      rows.unshift({
        group,
        name: 'GPU sample: NVML through koffi (fake libnvidia-ml: FFI cost only)',
        value: c.selfMs,
        unit: 'ms CPU',
        baseline: node.selfMs,
        baselineName: 'node-nvidia-smi way, our process (exec + xml2js)',
      })
      nvml.nvml.close()
    }
  } catch {
    // no gcc here: the NVML row is left out
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}

/** One non-streamed /completion; resolves to the server's own predicted tokens/s and its generated tokens. */
function generate(port: number, nPredict: number): Promise<{ readonly perSecond: number; readonly tokens: number }> {
  const body = JSON.stringify({ prompt: 'Hello', n_predict: nPredict, ignore_eos: true, cache_prompt: false })
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: '127.0.0.1',
        port,
        path: '/completion',
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          type Timings = { predicted_per_second?: number; predicted_n?: number }
          const t = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timings?: Timings }).timings
          const pps = t?.predicted_per_second
          if (typeof pps === 'number') resolve({ perSecond: pps, tokens: t?.predicted_n ?? 0 })
          else reject(new Error(`no timings in the answer (HTTP ${res.statusCode})`))
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * Tokens/s of the real llama-server (tiny model) with the whole telemetry on
 * (GPU at 1 Hz through the fake nvidia-smi, CPU, RAM, the server's own CPU and
 * RSS, process scan every 5 s) and off, alternating. Goal: ratio ≥ 0.98.
 */
export async function benchTelemetryOverhead(
  bin: string,
  model: string,
  rounds = 5,
  nPredict = 400,
  telemetry?: TelemetryOptions,
  label = 'GPU through the fake nvidia-smi',
): Promise<BenchRow[]> {
  const server = await startBenchServer(bin, model)
  const { child, port } = server
  const env = { ...process.env, PATH: `${fakeSmiDir}${path.delimiter}${process.env.PATH ?? ''}`, FAKE_SMI: '' }
  const off: number[] = []
  const on: number[] = []
  const seen = new Set<string>()
  // The GPU's energy over each request with telemetry on, as the core's meter takes it from the samples.
  const energy: { energyJ: number | null; predictedTokens: number }[] = []
  try {
    await generate(port, 64) // warm-up
    for (let i = 0; i < rounds; i++) {
      for (const withTelemetry of i % 2 === 0 ? [false, true] : [true, false]) {
        if (!withTelemetry) {
          off.push((await generate(port, nPredict)).perSecond)
          continue
        }
        const service = new TelemetryService(
          telemetry ?? { gpuBackend: 'nvidia-smi', intervalMs: 1000, scanIntervalMs: 5000, gpu: { smiExe: fakeSmi, env } },
        )
        service.setServerPid(child.pid ?? null)
        await service.start()
        const meter = new EnergyMeter()
        const offSample = service.on('sample', (reading) => meter.record(Date.now(), reading.gpu?.devices[0]))
        try {
          // The span is measured from a GPU reading on (the first comes once nvidia-smi's stream runs; none without a GPU).
          const waitUntil = Date.now() + 10_000
          while (!service.latest().gpu?.available && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 100))
          meter.record(Date.now(), service.latest().gpu?.devices[0])
          const from = Date.now()
          const done = await generate(port, nPredict)
          const to = Date.now()
          meter.record(to, service.latest().gpu?.devices[0])
          on.push(done.perSecond)
          energy.push({ energyJ: meter.between(from, to), predictedTokens: done.tokens })
          const gpu = service.latest().gpu
          seen.add(gpu?.available ? (gpu.backend ?? '?') : 'no GPU data')
        } finally {
          offSample()
          await service.stop()
        }
      }
    }
  } finally {
    await server.stop()
  }
  const base = median(off)
  const ours = median(on)
  return [
    {
      group: 'telemetry',
      name: `generation with telemetry on, ${label} [read via ${[...seen].join(', ')}] (${nPredict} tokens, median of ${rounds})`,
      value: ours,
      unit: 'tok/s',
      baseline: base,
      baselineName: 'telemetry off',
    },
    { group: 'telemetry', name: `generation ratio telemetry on/off, ${label} (goal ≥ 0.98)`, value: ours / base, unit: 'ratio' },
    {
      group: 'telemetry',
      // Beside the tok/s above; n/a where the GPU reports no power or energy. A fake GPU's figure shows the path, not a measurement.
      name: `GPU energy per 1,000 generated tokens, ${label} (over the runs with telemetry on)`,
      value: joulesPerThousandTokens(energy) ?? NaN,
      unit: 'J',
    },
  ]
}
