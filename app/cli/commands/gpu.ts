import type { GpuSnapshot } from '../../contract/telemetry'
import { formatGpuSnapshot, formatInventory } from '../../telemetry/gpu/format-gpu'
import { openGpuReader, type GpuBackendSetting, type GpuReader } from '../../telemetry/gpu/gpu-reader'
import { readGpuInventory } from '../../telemetry/gpu/inventory'
import { readSharedGpuReport } from '../../telemetry/gpu/pdh-shared-memory'
import { UsageError } from '../cli-error'
import type { CliCommand, CliContext } from '../command'
import { parseOptions, positiveNumber } from '../parse-options'

const BACKENDS: readonly GpuBackendSetting[] = ['auto', 'nvml', 'nvidia-smi']

export interface GpuOptions {
  readonly json: boolean
  readonly watch: boolean
  readonly intervalMs: number
  readonly backend: GpuBackendSetting
}

export function parseGpuArgs(args: readonly string[]): GpuOptions {
  const { values } = parseOptions(args, { json: { type: 'boolean' }, watch: { type: 'boolean' }, interval: { type: 'string' }, backend: { type: 'string' } })
  const backend = (values.backend ?? 'auto') as GpuBackendSetting
  if (!BACKENDS.includes(backend)) throw new UsageError(`--backend must be one of ${BACKENDS.join(', ')}, got "${values.backend}"`)
  return { json: values.json ?? false, watch: values.watch ?? false, intervalMs: positiveNumber('interval', values.interval, 1000, { unit: 'milliseconds', example: '1000' }), backend }
}

/** The nvidia-smi child needs a moment for its first line; NVML answers at once. */
async function firstReading(reader: GpuReader, timeoutMs: number): Promise<GpuSnapshot> {
  const deadline = Date.now() + timeoutMs
  let s = reader.read()
  while (s.available === false && s.backend !== null && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50))
    s = reader.read()
  }
  return s
}

async function runGpu(options: GpuOptions, io: CliContext): Promise<number> {
  const write = (text: string): void => {
    try {
      io.stdout.write(text)
    } catch {
      // a closed pipe must not crash the command
    }
  }
  const [inventory, reader] = await Promise.all([readGpuInventory(), openGpuReader(options.backend, { intervalMs: options.intervalMs })])
  try {
    const first = await firstReading(reader, Math.max(3000, options.intervalMs * 3))
    // Windows only: what the driver spills into system RAM (PDH), or why it cannot be read.
    const shared = process.platform === 'win32' ? readSharedGpuReport() : undefined
    if (options.json) write(`${JSON.stringify({ time: Date.now(), inventory, gpu: first, ...(shared ? { sharedGpuMemory: shared } : {}) })}\n`)
    else {
      write(`${('error' in inventory ? [`inventory: ${inventory.error}`] : formatInventory(inventory)).join('\n')}\n`)
      write(`${formatGpuSnapshot(first).join('\n')}\n`)
      if (shared) write(`shared GPU memory (system RAM): ${shared.available ? Object.entries(shared.adapters).map(([a, mib]) => `${a} ${Math.round(mib)} MiB`).join(', ') || 'no adapter listed' : shared.reason}\n`)
    }
    if (!options.watch) return first.available ? 0 : 1
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        const s = reader.read()
        write(options.json ? `${JSON.stringify({ time: Date.now(), gpu: s })}\n` : `${formatGpuSnapshot(s).join('\n')}\n`)
      }, options.intervalMs)
      const stop = (): void => {
        clearInterval(timer)
        for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) io.signals.off(sig, stop)
        resolve()
      }
      for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) io.signals.on(sig, stop)
    })
    return 0
  } finally {
    await reader.close()
  }
}

export const gpuCommand: CliCommand = {
  name: 'gpu',
  summary: 'show the NVIDIA GPUs (inventory and a sample), or watch them (--watch)',
  usage: `  llama-tray gpu [--json] [--watch] [--interval MS] [--backend auto|nvml|nvidia-smi]
    --json              one JSON object per line: {time, inventory, gpu[, sharedGpuMemory on Windows]} then {time, gpu}
    --watch             keep printing a sample every interval until Ctrl+C
    --interval MS       sampling interval in milliseconds (default 1000)
    --backend NAME      force NVML or the nvidia-smi reader (default auto: NVML, then nvidia-smi)
  Exit code 1 when no GPU data can be read (the reason is printed).`,
  run: (args, context) => runGpu(parseGpuArgs(args), context),
}
