import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { estimateLaunch, type LaunchEstimate } from '../../app/fit/estimate'
import type { GgufModel } from '../../app/fit/gguf-model'
import { parseLlamaArgs } from '../../app/fit/llama-args'
import { parseServerMemoryLog, type ReportedMemory } from './server-memory-log'

/**
 * The launches recorded on a real GPU by benchmarks/gpu-calibration/run-on-gpu.sh
 * (mainline v0.5.0 built with CUDA, H200, driver 580), replayed against the
 * estimator without a GPU. Models: T = the tiny fixture target, D = the tiny
 * draft, Q36 / Q08 = synthetic Qwen3.6-35B-A3B / Qwen3.5-0.8B with real shapes.
 */
export interface GpuLaunch {
  readonly name: string
  readonly args: readonly string[]
}

const SEED = ['-m', 'Q36', '-ngl', '999', '-c', '65536', '-np', '1', '-ctk', 'q4_0', '-ctv', 'q4_0']
const G = ['-m', 'Q36', '-ngl', '999', '-np', '1']
const Q4 = ['-ctk', 'q4_0', '-ctv', 'q4_0']

export const GPU_LAUNCHES: readonly GpuLaunch[] = [
  { name: 'tiny-c4096-np1', args: ['-m', 'T', '-c', '4096', '-np', '1'] },
  { name: 'tiny-c4096-ncmoe20', args: ['-m', 'T', '-c', '4096', '-np', '1', '--n-cpu-moe', '20'] },
  { name: 'tiny-ngl20', args: ['-m', 'T', '-c', '4096', '-np', '1', '-ngl', '20'] },
  { name: 'tiny-c16384-q4', args: ['-m', 'T', '-c', '16384', '-np', '1', ...Q4] },
  { name: 'tiny-fa-off', args: ['-m', 'T', '-c', '8192', '-np', '1', '-fa', 'off'] },
  { name: 'tiny-draft', args: ['-m', 'T', '-c', '8192', '-np', '1', '-md', 'D', '-ngld', '99', '--spec-type', 'draft-simple'] },
  { name: 'q36-seed-draft', args: [...SEED, '--n-cpu-moe', '34', '-md', 'Q08', '-ngld', '99', '--spec-type', 'draft-simple'] },
  { name: 'q36-seed', args: [...SEED, '--n-cpu-moe', '34'] },
  { name: 'q36-ncmoe30', args: [...SEED, '--n-cpu-moe', '30'] },
  { name: 'q36-ncmoe38', args: [...SEED, '--n-cpu-moe', '38'] },
  { name: 'q36-ncmoe40', args: [...SEED, '--n-cpu-moe', '40'] },
  { name: 'q36-all-gpu', args: SEED },
  { name: 'q36-c16384-f16', args: ['-m', 'Q36', '-ngl', '999', '-c', '16384', '-np', '1', '--n-cpu-moe', '34'] },
  { name: 'q36-seed-lm-none', args: [...SEED, '--n-cpu-moe', '34', '-lm', 'none'] },
  { name: 'q36-ub2048', args: [...SEED, '--n-cpu-moe', '34', '-ub', '2048', '-b', '2048'] },
  { name: 'a-c16384-q4-ub512', args: [...G, '-c', '16384', ...Q4] },
  { name: 'a-c65536-f16-ub512', args: [...G, '-c', '65536'] },
  { name: 'a-c65536-q4-ub256', args: [...G, '-c', '65536', ...Q4, '-ub', '256'] },
  { name: 'a-c65536-q4-ub1024', args: [...G, '-c', '65536', ...Q4, '-ub', '1024'] },
  { name: 'a-c65536-q4-ub2048', args: [...G, '-c', '65536', ...Q4, '-ub', '2048', '-b', '2048'] },
  { name: 'a-c65536-q4-np2', args: ['-m', 'Q36', '-ngl', '999', '-np', '2', '-c', '65536', ...Q4] },
  { name: 'a-fa-off-c16384', args: [...G, '-c', '16384', '-fa', 'off'] },
  { name: 'm-c16384-q4-ub512', args: [...G, '-c', '16384', ...Q4, '--n-cpu-moe', '34'] },
  { name: 'm-c65536-q4-ub256', args: [...G, '-c', '65536', ...Q4, '-ub', '256', '--n-cpu-moe', '34'] },
  { name: 'm-c65536-q4-ub1024', args: [...G, '-c', '65536', ...Q4, '-ub', '1024', '--n-cpu-moe', '34'] },
  { name: 'm-c65536-q4-no-op-offload', args: [...G, '-c', '65536', ...Q4, '--n-cpu-moe', '34', '--no-op-offload'] },
  { name: 'm-ncmoe1', args: [...G, '-c', '65536', ...Q4, '--n-cpu-moe', '1'] },
  { name: 'm-ot-down-only', args: [...G, '-c', '65536', ...Q4, '-ot', 'blk\\.(1[0-9]|2[0-9])\\.ffn_down_exps=CPU'] },
  { name: 'm-ngl30', args: ['-m', 'Q36', '-ngl', '30', '-np', '1', '-c', '65536', ...Q4] },
  { name: 'd-draft-alone', args: ['-m', 'Q08', '-ngl', '999', '-np', '1', '-c', '65536'] },
]

export interface GpuReplayRow {
  readonly name: string
  readonly estimate: LaunchEstimate
  /** Per loaded model (target, then draft), from the -lv 4 buffer lines. */
  readonly reported: readonly { gpu: ReportedMemory; host: ReportedMemory }[]
  /** Host weights per model as llama.cpp counts them (its memory breakdown): with mmap the CPU_Mapped buffer spans GPU tensors too. */
  readonly reportedHostWeightsMiB: readonly number[]
  /** What nvidia-smi showed the process holding after one short request, MiB (null when it never became ready). */
  readonly processMiB: number | null
}

const HOST_BREAKDOWN = /memory_breakdown_print: \|\s+- Host\s+\|\s+\d+\s+=\s+(\d+)\s+\+/

/** The estimate and the recorded figures of every launch. `models` maps T, D, Q36 and Q08 to loaded GGUF models. */
export async function replayGpuLaunches(logsDir: string, models: Readonly<Record<string, GgufModel>>): Promise<GpuReplayRow[]> {
  const summary = await readFile(join(logsDir, 'summary.tsv'), 'utf8')
  const processMiB = new Map<string, number | null>()
  for (const line of summary.trim().split('\n').slice(1)) {
    const cols = line.split('\t')
    const after = Number(cols[6])
    processMiB.set(cols[0] as string, Number.isFinite(after) ? after : null)
  }
  const rows: GpuReplayRow[] = []
  for (const launch of GPU_LAUNCHES) {
    const model = (key: string): GgufModel => {
      const m = models[key]
      if (!m) throw new Error(`${launch.name}: no model for ${key}`)
      return m
    }
    const parsed = parseLlamaArgs([...launch.args])
    const target = model(parsed.model as string)
    const draft = parsed.settings.draft ? model(parsed.settings.draft.path) : null
    const estimate = estimateLaunch(target, draft, parsed.settings)
    const log = await readFile(join(logsDir, `${launch.name}.log`), 'utf8')
    const reportedHostWeightsMiB = log
      .split('\n')
      .map((l) => HOST_BREAKDOWN.exec(l))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
    rows.push({
      name: launch.name,
      estimate,
      reported: parseServerMemoryLog(log),
      reportedHostWeightsMiB,
      processMiB: processMiB.get(launch.name) ?? null,
    })
  }
  return rows
}

export function reportedTotal(r: ReportedMemory): number {
  return r.weights + r.kv + r.recurrent + r.compute
}
