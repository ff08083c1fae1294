import type { FitReport, LlamaFitPlan } from '../../contract/fit'
import { fitParamsBeside, llamaFitDryRun } from '../../fit/llama-fit-dry-run'
import { formatLlamaFit } from '../../fit/format-llama-fit'
import { DEFAULT_HEADROOM_MIB } from '../../fit/fit-report'
import { FitError } from '../../fit/fit-error'
import { fitLaunchArgs, profileLaunchArgs } from '../../profiles/profile-fit'
import { formatFitReport } from '../../fit/format-report'
import { openGpuReader } from '../../telemetry/gpu/gpu-reader'
import { availableVramMiB } from '../../telemetry/gpu/free-vram'
import { GpuRuntimeStore } from '../../fit/runtime-store'
import { UsageError } from '../cli-error'
import type { CliCommand, CliContext } from '../command'
import { parseOptions, positiveNumber } from '../parse-options'
import { FIT_HELP } from './fit-help'

/** Free VRAM of the first GPU from telemetry (NVML, then nvidia-smi), or null with the reason. */
async function freeVramFromTelemetry(): Promise<{ mib: number | null; name: string | null; reason: string | null }> {
  const reader = await openGpuReader('auto', { intervalMs: 1000 })
  try {
    const deadline = Date.now() + 3000
    let s = reader.read()
    while (!s.available && s.backend !== null && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50))
      s = reader.read()
    }
    const device = s.devices[0]
    if (!s.available || !device) return { mib: null, name: null, reason: s.reason ?? 'no GPU found' }
    return { mib: availableVramMiB(device), name: device.name, reason: null }
  } finally {
    await reader.close()
  }
}

/** llama.cpp's own plan for the same flags, from llama-fit-params beside the profile's llama-server (or --binary). */
async function llamaFitFor(serverBinary: string, args: readonly string[], headroomMiB: number): Promise<LlamaFitPlan> {
  if (serverBinary === '')
    throw new UsageError(
      'The option --llama-fit needs the llama-server whose llama-fit-params to run: a profile with a binary, or --binary PATH.',
    )
  const tool = fitParamsBeside(serverBinary)
  if (tool === null)
    throw new UsageError(
      `No llama-fit-params beside ${serverBinary}, which --llama-fit runs: take it from llama.cpp's release archive, or build the ` +
        `llama-fit-params target.`,
    )
  return llamaFitDryRun(tool, args, headroomMiB)
}

const FLAG_MAP: readonly [string, string][] = [
  ['ctx', '-c'],
  ['parallel', '-np'],
  ['cache-type-k', '-ctk'],
  ['cache-type-v', '-ctv'],
  ['n-gpu-layers', '-ngl'],
  ['n-cpu-moe', '--n-cpu-moe'],
  ['draft', '-md'],
  ['n-gpu-layers-draft', '-ngld'],
  ['ubatch', '-ub'],
]

async function runFit(args: readonly string[], io: CliContext): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    {
      draft: { type: 'string' },
      'vram-mib': { type: 'string' },
      gpu: { type: 'string' },
      'headroom-mib': { type: 'string' },
      'runtime-mib': { type: 'string' },
      ctx: { type: 'string' },
      parallel: { type: 'string' },
      'cache-type-k': { type: 'string' },
      'cache-type-v': { type: 'string' },
      'n-gpu-layers': { type: 'string' },
      'n-gpu-layers-draft': { type: 'string' },
      'n-cpu-moe': { type: 'string' },
      ubatch: { type: 'string' },
      'llama-fit': { type: 'boolean' },
      binary: { type: 'string' },
      json: { type: 'boolean' },
    },
    true,
  )
  const target = positionals[0]
  if (!target || positionals.length > 1) throw new UsageError('Fit needs one model .gguf file or one profile.')
  if (values.gpu !== undefined && values.gpu !== 'auto') throw new UsageError(`The option --gpu takes only "auto", got "${values.gpu}".`)
  if (values.gpu !== undefined && values['vram-mib'] !== undefined) throw new UsageError('Give either --vram-mib or --gpu auto, not both.')
  const headroomMiB = values['headroom-mib'] === undefined ? DEFAULT_HEADROOM_MIB : Number(values['headroom-mib'])
  if (!Number.isFinite(headroomMiB) || headroomMiB < 0)
    throw new UsageError(`The option --headroom-mib needs a number ≥ 0, got "${values['headroom-mib']}".`)
  const vramFlag = positiveNumber('vram-mib', values['vram-mib'], null)
  const runtimeMiB = values['runtime-mib'] === undefined ? undefined : Number(values['runtime-mib'])
  if (runtimeMiB !== undefined && (!Number.isFinite(runtimeMiB) || runtimeMiB < 0))
    throw new UsageError(`The option --runtime-mib needs a number ≥ 0, got "${values['runtime-mib']}".`)

  // Options on the command line override the profile's (or the defaults): as extra llama-server flags after it.
  const extra: string[] = []
  for (const [opt, flag] of FLAG_MAP) {
    const v = values[opt as keyof typeof values]
    if (typeof v === 'string') extra.push(flag, v)
  }
  try {
    const fromProfile = target.toLowerCase().endsWith('.gguf') ? null : await profileLaunchArgs(io.home, target)
    const base = fromProfile === null ? ['-m', target] : fromProfile.args
    let freeVramMiB: number | null = vramFlag
    let vramSource: FitReport['vramSource'] = vramFlag === null ? 'none' : 'flag'
    let learned: number | null = null
    if (values.gpu === 'auto') {
      const t = await freeVramFromTelemetry()
      if (t.mib === null) throw new FitError(`--gpu auto: no free VRAM figure (${t.reason}); pass --vram-mib N instead`)
      freeVramMiB = t.mib
      vramSource = 'telemetry'
      // The runtime the app learned on this GPU model after a launch, unless --runtime-mib says otherwise.
      if (runtimeMiB === undefined && t.name !== null) learned = (await GpuRuntimeStore.open(io.home)).runtimeMiB(t.name)
    }
    const runtime =
      runtimeMiB !== undefined ? { runtimeMiB } : learned !== null ? { runtimeMiB: learned, runtimeSource: 'measured' as const } : {}
    const report = await fitLaunchArgs([...base, ...extra], { freeVramMiB, headroomMiB, vramSource, ...runtime })
    const llamaFit = values['llama-fit']
      ? await llamaFitFor(values.binary ?? fromProfile?.binary ?? '', [...base, ...extra], headroomMiB)
      : undefined
    if (values.json) io.stdout.write(`${JSON.stringify(llamaFit === undefined ? report : { ...report, llamaFit })}\n`)
    else
      io.stdout.write(
        `${formatFitReport(report)}\n${llamaFit === undefined ? '' : `${formatLlamaFit(llamaFit, report, headroomMiB).join('\n')}\n`}`,
      )
    return report.fits === false ? 1 : 0
  } catch (err) {
    if (err instanceof FitError) throw new UsageError(err.message)
    throw err
  }
}

export const fitCommand: CliCommand = {
  ...FIT_HELP,
  run: runFit,
}
