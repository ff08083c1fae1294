import { createRequire } from 'node:module'
import type { GpuDevice } from '../../app/contract/telemetry'
import type { Nvml } from '../../app/telemetry/gpu/nvml'
import { runOnce } from '../../app/lib/process/run-once'
import { parseSmiLine } from '../../app/telemetry/gpu/smi-csv'
import { queryArgument, type SmiField } from '../../app/telemetry/gpu/smi-fields'
import { CSV_FORMAT } from '../../app/telemetry/gpu/smi-probe'
import { SmiSampler } from '../../app/telemetry/gpu/smi-sampler'
import { childrenCpuMs, pidCpuMs, selfCpuMs } from './cpu-clock'

/** CPU cost of one way of reading the GPU, per sample. */
export interface GpuCost {
  readonly name: string
  readonly samples: number
  /** CPU of this (Node) process per sample, in ms: our reading and parsing. */
  readonly selfMs: number
  /** CPU of the child processes per sample, in ms; null when there are none (NVML). */
  readonly childMs: number | null
  readonly totalMs: number
  readonly wallMsPerSample: number
}

function cost(name: string, samples: number, self: number, child: number | null, wall: number): GpuCost {
  return {
    name,
    samples,
    selfMs: self / samples,
    childMs: child === null ? null : child / samples,
    totalMs: (self + (child ?? 0)) / samples,
    wallMsPerSample: wall / samples,
  }
}

/** NVML in-process: every figure of every GPU, `samples` times. */
export function measureNvml(nvml: Nvml, samples: number): GpuCost {
  for (let i = 0; i < 50; i++) nvml.sample() // warm up the JIT and the driver
  const c0 = selfCpuMs()
  const t0 = performance.now()
  for (let i = 0; i < samples; i++) nvml.sample()
  return cost('NVML in-process (koffi)', samples, selfCpuMs() - c0, null, performance.now() - t0)
}

/**
 * One long-lived `nvidia-smi -lms` child read by SmiSampler: our CPU and the
 * child's, from its first line to `samples` lines later (the start is paid once).
 */
export async function measureSmiStream(
  exe: string,
  fields: readonly SmiField[],
  intervalMs: number,
  samples: number,
  env?: NodeJS.ProcessEnv,
): Promise<GpuCost> {
  const sampler = new SmiSampler({ exe, fields, intervalMs, env, watchdogIntervals: 20 })
  let lines = 0
  let start: { self: number; child: number | null; wall: number } | null = null
  let end: { self: number; child: number | null; wall: number } | null = null
  const mark = () => ({ self: selfCpuMs(), child: sampler.childPid ? pidCpuMs(sampler.childPid) : null, wall: performance.now() })
  const done = new Promise<void>((resolve) => {
    sampler.on('sample', () => {
      lines++
      if (lines === 1) start = mark()
      if (lines === samples + 1) {
        end = mark()
        resolve()
      }
    })
  })
  sampler.start()
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, intervalMs * (samples + 20) + 10_000))
  await Promise.race([done, timeout])
  await sampler.stop()
  const s = start as { self: number; child: number | null; wall: number } | null
  const e = end as { self: number; child: number | null; wall: number } | null
  if (!s || !e) throw new Error(`nvidia-smi stream gave ${lines} lines, wanted ${samples + 1}`)
  const child = s.child !== null && e.child !== null ? e.child - s.child : null
  return cost(`nvidia-smi -lms ${intervalMs}, one long-lived child`, samples, e.self - s.self, child, e.wall - s.wall)
}

/** One `nvidia-smi --query-gpu` process per sample, parsed the same way. */
export async function measureSmiOneShot(
  exe: string,
  fields: readonly SmiField[],
  samples: number,
  env?: NodeJS.ProcessEnv,
): Promise<GpuCost> {
  const c0 = selfCpuMs()
  const k0 = childrenCpuMs()
  const t0 = performance.now()
  let parsed = 0
  for (let i = 0; i < samples; i++) {
    const r = await runOnce(exe, [queryArgument(fields), CSV_FORMAT], 10_000, env)
    parsed += r.stdout
      .split('\n')
      .map((l) => parseSmiLine(l, fields))
      .filter((d): d is GpuDevice => d !== null).length
  }
  if (parsed < samples) throw new Error(`one-shot nvidia-smi parsed ${parsed} of ${samples} samples`)
  return cost('nvidia-smi --query-gpu spawned per sample', samples, selfCpuMs() - c0, childrenCpuMs() - k0, performance.now() - t0)
}

type NodeNvidiaSmi = (callback: (err: unknown, data: unknown) => void) => void

/**
 * node-nvidia-smi as published: exec('nvidia-smi -q -x') through a shell, then
 * xml2js. It finds nvidia-smi on process.env.PATH, so pathPrefix (the fake's
 * folder) is put in front of it for the run.
 */
export async function measureNodeNvidiaSmi(samples: number, pathPrefix?: string): Promise<GpuCost> {
  const smi = createRequire(import.meta.url)('node-nvidia-smi') as NodeNvidiaSmi
  const oldPath = process.env.PATH
  if (pathPrefix) process.env.PATH = `${pathPrefix}:${oldPath ?? ''}`
  try {
    const once = () =>
      new Promise<void>((resolve, reject) =>
        smi((err, data) => (err ? reject(new Error(String(err))) : data ? resolve() : reject(new Error('no data')))),
      )
    await once() // warm up
    const c0 = selfCpuMs()
    const k0 = childrenCpuMs()
    const t0 = performance.now()
    for (let i = 0; i < samples; i++) await once()
    return cost(
      'node-nvidia-smi (shell + nvidia-smi -q -x + xml2js)',
      samples,
      selfCpuMs() - c0,
      childrenCpuMs() - k0,
      performance.now() - t0,
    )
  } finally {
    process.env.PATH = oldPath
  }
}
