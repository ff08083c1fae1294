import type { GpuSnapshot } from '../../contract/telemetry'
import { formatGpuSnapshot, formatInventory } from '../../telemetry/gpu/format-gpu'
import { openGpuReader, type GpuBackendSetting, type GpuReader, type GpuReaderOptions } from '../../telemetry/gpu/gpu-reader'
import { NVIDIA_SMI_NOT_FOUND, readGpuInventory, type GpuInventory, type InventoryOptions } from '../../telemetry/gpu/inventory'
import { readSharedGpuReport } from '../../platform/win32/pdh-shared-memory'
import type { GpuProcessUse } from '../../platform/gpu-processes'
import type { GpuProcessReader } from '../../telemetry/gpu/gpu-process-reader'
import { platformGpuProcessReader } from '../../telemetry/gpu/platform-gpu-processes'
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
  /** Which programs hold the GPU (default: the platform's, PDH on Windows, NVML or nvidia-smi elsewhere; null: not read). */
  readonly processes?: ((nvidiaUsedMiB: () => number | null) => GpuProcessReader | null) | null
}

/** The programs on the GPU in one line: "Cyberpunk2077.exe 5,120 MiB (3D 91 %), python3 300 MiB". */
export function formatGpuProcesses(processes: readonly GpuProcessUse[]): string {
  if (processes.length === 0) return 'none'
  return processes
    .map((p) => {
      const memory = p.dedicatedMiB === null ? '' : ` ${Math.round(p.dedicatedMiB).toLocaleString('en-US')} MiB`
      const busy = p.engine3dPct === null ? '' : ` (3D ${Math.round(p.engine3dPct)} %)`
      return `${p.name ?? `pid ${p.pid}`}${memory}${busy}`
    })
    .join(', ')
}

type GpuProcessReport =
  { readonly available: true; readonly processes: readonly GpuProcessUse[] } | { readonly available: false; readonly reason: string }

/** One reading of the programs on the GPU, or why there is none; nothing is read from a GPU that is not there. */
async function readGpuProcesses(sources: GpuSources, first: GpuSnapshot): Promise<GpuProcessReport | undefined> {
  if (!first.available || sources.processes === null) return undefined
  const reader = (sources.processes ?? platformGpuProcessReader)(() => first.devices[0]?.memoryUsedMiB ?? null)
  if (!reader) return undefined
  try {
    const reading = await reader.read([])
    return reading ? { available: true, processes: reading.processes } : { available: false, reason: reader.problem ?? 'nothing was read' }
  } finally {
    await reader.close()
  }
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
    const processes = await readGpuProcesses(sources, first)
    const missing = driverMissing(inventory, first)
    if (!options.json && (missing || driverBroken(inventory, first))) {
      // The loader's paths and the tool's exit codes mean nothing to most people; they are there for whoever asks.
      write(`${missing ? NO_DRIVER : BROKEN_DRIVER}\n`)
      if (options.verbose) write(`  inventory: ${'error' in inventory ? inventory.error : ''}\n  ${first.reason ?? ''}\n`)
      return 1
    }
    if (options.json)
      write(
        `${JSON.stringify({
          time: Date.now(),
          inventory,
          gpu: first,
          ...(shared ? { sharedGpuMemory: shared } : {}),
          ...(processes ? { gpuProcesses: processes } : {}),
        })}\n`,
      )
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
      if (processes?.available) write(`programs on the GPU: ${formatGpuProcesses(processes.processes)}\n`)
      else if (processes && options.verbose) write(`programs on the GPU: not read (${processes.reason})\n`)
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
