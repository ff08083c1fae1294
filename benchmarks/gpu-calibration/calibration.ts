import { resolve } from 'node:path'
import { deviceTotal, estimateLaunch, type DeviceBytes } from '../../app/fit/estimate'
import { readGgufModel } from '../../app/fit/gguf-model'
import { parseLlamaArgs } from '../../app/fit/llama-args'
import { probeServerMemory } from './server-probe'
import type { ReportedMemory } from './server-memory-log'

/** One launch to check: llama-server arguments relative to the models folder (model first). */
export interface CalibrationConfig {
  readonly name: string
  readonly args: readonly string[]
}

/** The configurations the estimator is checked on (tiny fixture models, CPU build: everything on the host). */
export const CALIBRATION_CONFIGS: readonly CalibrationConfig[] = [
  { name: 'c4096 np1 f16', args: ['-m', 'tiny-target.gguf', '-c', '4096', '-np', '1'] },
  { name: 'c16384 np1 q8_0/q4_0', args: ['-m', 'tiny-target.gguf', '-c', '16384', '-np', '1', '-ctk', 'q8_0', '-ctv', 'q4_0'] },
  { name: 'c8192 np2 q4_0', args: ['-m', 'tiny-target.gguf', '-c', '8192', '-np', '2', '-ctk', 'q4_0', '-ctv', 'q4_0'] },
  { name: 'c32768 np4 kvu q5_1/q5_0', args: ['-m', 'tiny-target.gguf', '-c', '32768', '-np', '4', '-kvu', '-ctk', 'q5_1', '-ctv', 'q5_0'] },
  { name: 'c8192 np1 ub1024', args: ['-m', 'tiny-target.gguf', '-c', '8192', '-np', '1', '-ub', '1024'] },
  {
    name: 'c6000 np3 ub256 iq4_nl',
    args: ['-m', 'tiny-target.gguf', '-c', '6000', '-np', '3', '-b', '256', '-ctk', 'iq4_nl', '-ctv', 'q8_0'],
  },
  { name: 'c8192 np1 fa off', args: ['-m', 'tiny-target.gguf', '-c', '8192', '-np', '1', '-fa', 'off'] },
  { name: 'c4096 np1 n-cpu-moe 20', args: ['-m', 'tiny-target.gguf', '-c', '4096', '-np', '1', '--n-cpu-moe', '20'] },
  { name: 'c4096 np1 cpu-moe -ot', args: ['-m', 'tiny-target.gguf', '-c', '4096', '-np', '1', '--cpu-moe', '-ot', 'blk\\.1\\.ffn_.*=CPU'] },
  { name: 'ctx unset np auto', args: ['-m', 'tiny-target.gguf'] },
  {
    name: 'c8192 np1 + draft',
    args: ['-m', 'tiny-target.gguf', '-c', '8192', '-np', '1', '-md', 'tiny-draft.gguf', '--spec-type', 'draft-simple'],
  },
  {
    name: 'c16384 np2 q8_0 + draft',
    args: [
      '-m',
      'tiny-target.gguf',
      '-c',
      '16384',
      '-np',
      '2',
      '-ctk',
      'q8_0',
      '-ctv',
      'q8_0',
      '-md',
      'tiny-draft.gguf',
      '--spec-type',
      'draft-simple',
      '--n-cpu-moe',
      '8',
    ],
  },
  {
    name: 'c8192 np1 + qwen35 draft',
    args: ['-m', 'tiny-target.gguf', '-c', '8192', '-np', '1', '-md', 'tiny-draft-qwen35.gguf', '--spec-type', 'draft-simple'],
  },
  { name: 'qwen35 dense c8192 np2', args: ['-m', 'tiny-draft-qwen35.gguf', '-c', '8192', '-np', '2'] },
]

export type Part = 'weights' | 'kv' | 'recurrent' | 'compute'
export const PARTS: readonly Part[] = ['weights', 'kv', 'recurrent', 'compute']
/** Allowed relative error per part: sizes 5%, compute buffers 15%. */
export const TOLERANCE: Readonly<Record<Part, number>> = { weights: 0.05, kv: 0.05, recurrent: 0.05, compute: 0.15 }

export interface CalibrationRow {
  readonly config: string
  /** 'model' or 'draft'. */
  readonly which: 'model' | 'draft'
  readonly part: Part
  readonly estimatedMiB: number
  readonly reportedMiB: number
  /** (estimate − reported) / reported; 0 when both are 0. */
  readonly error: number
  readonly ok: boolean
}

const MIB = 1024 * 1024
const round = (n: number): number => Math.round(n * 100) / 100

function rows(config: string, which: 'model' | 'draft', est: DeviceBytes, rep: ReportedMemory): CalibrationRow[] {
  return PARTS.map((part) => {
    const e = est[part] / MIB
    const r = rep[part] / MIB
    // Reported figures have 0.01 MiB resolution: count anything within that as exact.
    const error = Math.abs(e - r) < 0.01 ? 0 : r === 0 ? Number.POSITIVE_INFINITY : (e - r) / r
    return { config, which, part, estimatedMiB: round(e), reportedMiB: round(r), error, ok: Math.abs(error) <= TOLERANCE[part] }
  })
}

/**
 * Runs each configuration on the real llama-server (a CPU build, so every
 * buffer is on the host) and compares the estimate with what it reports.
 */
export async function calibrate(
  bin: string,
  modelsDir: string,
  configs: readonly CalibrationConfig[] = CALIBRATION_CONFIGS,
): Promise<CalibrationRow[]> {
  const out: CalibrationRow[] = []
  for (const c of configs) {
    const args = c.args.map((a) => (a.endsWith('.gguf') ? resolve(modelsDir, a) : a))
    const parsed = parseLlamaArgs(args)
    const settings = { ...parsed.settings, nGpuLayers: 0 }
    const model = await readGgufModel(parsed.model as string)
    const draft = settings.draft ? await readGgufModel(settings.draft.path) : null
    const est = estimateLaunch(model, draft, settings)
    const reported = await probeServerMemory(bin, args)
    const [rm, rd] = reported
    if (!rm) throw new Error(`${c.name}: llama-server reported no model buffers`)
    out.push(...rows(c.name, 'model', est.model.host, rm.host))
    if (est.draft && rd) out.push(...rows(c.name, 'draft', est.draft.host, rd.host))
    if (deviceTotal(est.model.gpu) !== 0) throw new Error(`${c.name}: a CPU-only estimate put something on the GPU`)
  }
  return out
}

/** The comparison as a text table. */
export function formatCalibration(rows: readonly CalibrationRow[]): string {
  const head = ['config', 'model', 'part', 'estimate MiB', 'reported MiB', 'error', 'ok']
  const body = rows.map((r) => [
    r.config,
    r.which,
    r.part,
    r.estimatedMiB.toFixed(2),
    r.reportedMiB.toFixed(2),
    `${(r.error * 100).toFixed(1)}%`,
    r.ok ? 'yes' : 'NO',
  ])
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] as string).length)))
  return [head, ...body].map((cols) => cols.map((c, i) => c.padEnd(widths[i] as number)).join('  ')).join('\n')
}
