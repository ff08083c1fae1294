// Run on a machine with a real NVIDIA GPU (bundled into one file with its
// dependencies; see docs/telemetry-windows-checklist.md "Measuring on a real GPU").
// Writes the real outputs and the CPU cost per sample of every backend under $OUT.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { findNvidiaSmi } from '../../app/telemetry/gpu/find-nvidia-smi'
import { openNvml } from '../../app/telemetry/gpu/nvml'
import { runOnce } from '../../app/lib/process/run-once'
import { queryArgument } from '../../app/telemetry/gpu/smi-fields'
import { CSV_FORMAT, probeSmiFields } from '../../app/telemetry/gpu/smi-probe'
import { measureNodeNvidiaSmi, measureNvml, measureSmiOneShot, measureSmiStream, type GpuCost } from './gpu-cost'

async function main(): Promise<void> {
  const out = process.env.OUT ?? 'device-out'
  mkdirSync(out, { recursive: true })
  const save = (name: string, data: string | object): void =>
    writeFileSync(path.join(out, name), typeof data === 'string' ? data : `${JSON.stringify(data, null, 2)}\n`)
  const costs: GpuCost[] = []
  const log = (c: GpuCost): void => {
    costs.push(c)
    process.stdout.write(
      `${c.name}: self ${c.selfMs.toFixed(4)} ms + child ${c.childMs?.toFixed(3) ?? '-'} ms = ${c.totalMs.toFixed(4)} ms CPU/sample ` +
        `(wall ${c.wallMsPerSample.toFixed(2)} ms, n=${c.samples})\n`,
    )
  }

  const nvml = openNvml()
  save('nvml-open.json', nvml.ok ? { ok: true, library: nvml.nvml.libraryPath } : nvml)
  if (nvml.ok) {
    save('nvml-sample.json', nvml.nvml.sample())
    save('nvml-inventory.json', nvml.nvml.inventory())
    log(measureNvml(nvml.nvml, 5000))
  }

  const exe = findNvidiaSmi()
  if (!exe) throw new Error('nvidia-smi not found on PATH')
  const probe = await probeSmiFields(exe)
  save('probe.json', probe)
  if (!probe.ok) throw new Error(probe.reason)
  const query = [queryArgument(probe.fields), CSV_FORMAT]
  const one = await runOnce(exe, query, 10_000)
  save('query-ours.csv', `# nvidia-smi ${query.join(' ')}\n${one.stdout}`)
  const stream = await runOnce(exe, [...query, '-lms', '250'], 3100)
  save('stream-ours-lms250.csv', `# nvidia-smi ${query.join(' ')} -lms 250 (3 s, idle)\n${stream.stdout}`)

  // The fast run first also warms up the parser's JIT before the 1 Hz figure.
  log(await measureSmiStream(exe, probe.fields, 100, 100))
  log(await measureSmiStream(exe, probe.fields, 1000, 12))
  log(await measureSmiOneShot(exe, probe.fields, 20))
  log(await measureNodeNvidiaSmi(10))
  if (nvml.ok) nvml.nvml.close()

  const node = costs.find((c) => c.name.startsWith('node-nvidia-smi'))
  save('measurements.json', {
    note: 'CPU ms per GPU sample; self = this Node process, child = nvidia-smi (and shell) processes',
    node: process.version,
    costs,
    ratioVsNodeNvidiaSmi: node ? Object.fromEntries(costs.map((c) => [c.name, node.totalMs / c.totalMs])) : null,
  })
}

main().catch((err: unknown) => {
  process.stderr.write(`device-measure failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  process.exitCode = 1
})
