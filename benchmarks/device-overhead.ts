// Run on the GPU machine: tokens/s of the real llama-server (tiny model) with
// the whole telemetry on vs off, alternating, for the fake nvidia-smi (as in
// `npm run bench`), real NVML and the real nvidia-smi. Args: <llama-server> <model> [rounds] [tokens].
import { benchTelemetryOverhead } from './telemetry.bench'
import { formatTable } from './format-table'
import type { BenchRow } from './bench-row'

async function main(): Promise<void> {
  const [bin, model, roundsText, tokensText] = process.argv.slice(2)
  if (!bin || !model) throw new Error('usage: device-overhead <llama-server> <model> [rounds] [tokens]')
  const rounds = Number(roundsText ?? 7)
  const tokens = Number(tokensText ?? 400)
  const rows: BenchRow[] = []
  const run = async (label: string, telemetry: Parameters<typeof benchTelemetryOverhead>[4]): Promise<void> => {
    process.stderr.write(`overhead: ${label}…\n`)
    rows.push(...(await benchTelemetryOverhead(bin, model, rounds, tokens, telemetry, label)))
  }
  await run('GPU through the fake nvidia-smi', undefined)
  await run('GPU through real NVML', { gpuBackend: 'nvml', intervalMs: 1000, scanIntervalMs: 5000 })
  await run('GPU through the real nvidia-smi -lms', { gpuBackend: 'nvidia-smi', intervalMs: 1000, scanIntervalMs: 5000 })
  process.stdout.write(`${formatTable(rows)}\n`)
}

main().catch((err: unknown) => {
  process.stderr.write(`device-overhead failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
  process.exitCode = 1
})
