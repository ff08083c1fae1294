import type { GpuSnapshot } from '../../contract/telemetry'
import { formatGpuSnapshot, formatInventory } from '../../telemetry/gpu/format-gpu'
import { openGpuReader, type GpuBackendSetting, type GpuReader, type GpuReaderOptions } from '../../telemetry/gpu/gpu-reader'
import { NVIDIA_SMI_NOT_FOUND, readGpuInventory, type GpuInventory, type InventoryOptions } from '../../telemetry/gpu/inventory'
import { readSharedGpuReport } from '../../platform/win32/pdh-shared-memory'
import { UsageError } from '../cli-error'
import type { CliCommand, CliContext } from '../command'
import { parseOptions, positiveNumber } from '../parse-options'
import { GPU_HELP } from './gpu-help'

const BACKENDS: readonly GpuBackendSetting[] = ['auto', 'nvml', 'nvidia-smi']

export interface GpuOptions {
  readonly json: boolean
  readonly watch: boolean
  readonly intervalMs: number
  readonly backend: GpuBackendSetting
  /** Also print where the driver was looked for when it is missing. */
  readonly verbose: boolean
}

/** Where `gpu` looks for the driver; a test points both at files that do not exist. */
export interface GpuSources {
  readonly reader?: Partial<Omit<GpuReaderOptions, 'intervalMs'>>
  readonly inventory?: InventoryOptions
}

export const NO_DRIVER = 'No NVIDIA driver found; install it from nvidia.com to see the GPU (Llama Tray still runs models on the CPU).'

export const BROKEN_DRIVER = 'The NVIDIA driver does not answer; reinstall it from nvidia.com (Llama Tray still runs models on the CPU).'

/** nvidia-smi is there but fails, and no GPU reading came: the driver is installed but broken (or mismatched). */
function driverBroken(inventory: GpuInventory | { readonly error: string }, sample: GpuSnapshot): boolean {
  return 'error' in inventory && inventory.error !== NVIDIA_SMI_NOT_FOUND && !sample.available
}

/** Neither nvidia-smi nor the NVML library exists: the driver is not installed (not merely failing). */
function driverMissing(inventory: GpuInventory | { readonly error: string }, sample: GpuSnapshot): boolean {
  return 'error' in inventory && inventory.error === NVIDIA_SMI_NOT_FOUND && !sample.available && sample.backend === null
}

export function parseGpuArgs(args: readonly string[]): GpuOptions {
  const { values } = parseOptions(args, {
    json: { type: 'boolean' },
    watch: { type: 'boolean' },
    interval: { type: 'string' },
    backend: { type: 'string' },
    verbose: { type: 'boolean' },
  })
  const backend = (values.backend ?? 'auto') as GpuBackendSetting
  if (!BACKENDS.includes(backend))
    throw new UsageError(`The option --backend takes one of ${BACKENDS.join(', ')}; "${values.backend}" is not one.`)
  const intervalMs = positiveNumber('interval', values.interval, 1000, { unit: 'milliseconds', example: '1000' })
  return { json: values.json ?? false, watch: values.watch ?? false, intervalMs, backend, verbose: values.verbose ?? false }
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

export async function runGpu(options: GpuOptions, io: CliContext, sources: GpuSources = {}): Promise<number> {
  const write = (text: string): void => {
    try {
      io.stdout.write(text)
    } catch {
      // a closed pipe must not crash the command
    }
  }
  const [inventory, reader] = await Promise.all([
    readGpuInventory(sources.inventory),
    openGpuReader(options.backend, { ...sources.reader, intervalMs: options.intervalMs }),
  ])
  try {
    const first = await firstReading(reader, Math.max(3000, options.intervalMs * 3))
    // Windows only: what the driver spills into system RAM (PDH), or why it cannot be read.
    const shared = process.platform === 'win32' ? readSharedGpuReport() : undefined
    const missing = driverMissing(inventory, first)
    if (!options.json && (missing || driverBroken(inventory, first))) {
      // The loader's paths and the tool's exit codes mean nothing to most people; they are there for whoever asks.
      write(`${missing ? NO_DRIVER : BROKEN_DRIVER}\n`)
      if (options.verbose) write(`  inventory: ${'error' in inventory ? inventory.error : ''}\n  ${first.reason ?? ''}\n`)
      return 1
    }
    if (options.json)
      write(`${JSON.stringify({ time: Date.now(), inventory, gpu: first, ...(shared ? { sharedGpuMemory: shared } : {}) })}\n`)
    else {
      write(`${('error' in inventory ? [`inventory: ${inventory.error}`] : formatInventory(inventory)).join('\n')}\n`)
      write(`${formatGpuSnapshot(first).join('\n')}\n`)
      if (shared)
        write(
          `shared GPU memory (system RAM): ${
            shared.available
              ? Object.entries(shared.adapters)
                  .map(([a, mib]) => `${a} ${Math.round(mib)} MiB`)
                  .join(', ') || 'no adapter listed'
              : shared.reason
          }\n`,
        )
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
  ...GPU_HELP,
  run: (args, context) => runGpu(parseGpuArgs(args), context),
}
