import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { LlamaFitPlan } from '../contract/fit'
import { runOnce } from '../lib/process/run-once'
import { flagUses } from '../contract/flag-args'
import { FitError } from './fit-error'
import { parseLlamaFitPlan } from './llama-fit-plan'

/**
 * Asks llama.cpp what its own fit would do, without starting a server:
 * `llama-fit-params` (shipped beside llama-server in llama.cpp's release
 * archives) with the profile's model and memory flags and a --fit-target.
 * It reads the GGUF and makes test allocations on the GPU; nothing stays loaded.
 */

/** The flags that decide memory and that llama-fit-params accepts; offload and draft flags are left out on purpose. */
const KEPT = new Set([
  'model',
  'ctx-size',
  'parallel',
  'cache-type-k',
  'cache-type-v',
  'batch-size',
  'ubatch-size',
  'flash-attn',
  'kv-unified',
  'swa-full',
  'fit-ctx',
])

/** llama-fit-params beside a llama-server binary, or null when that build has none. */
export function fitParamsBeside(serverBinary: string): string | null {
  const exe = basename(serverBinary).toLowerCase().endsWith('.exe') ? 'llama-fit-params.exe' : 'llama-fit-params'
  const path = join(dirname(serverBinary), exe)
  return existsSync(path) ? path : null
}

export function dryRunArgs(serverArgs: readonly string[], headroomMiB: number): string[] {
  const out: string[] = []
  for (const use of flagUses(serverArgs)) {
    if (!use.def || !KEPT.has(use.def.name)) continue
    out.push(...serverArgs.slice(use.index, use.index + use.span))
  }
  return [...out, '-fitt', String(Math.round(headroomMiB)), '-lv', '4']
}

export interface ProcessOutput {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

export type RunProcess = (bin: string, args: readonly string[], timeoutMs: number) => Promise<ProcessOutput>

/** Killed with its process group at the timeout (see runOnce); the output so far is kept for the error. */
const runProcess: RunProcess = async (bin, args, timeoutMs) => {
  const r = await runOnce(bin, args, timeoutMs, process.env, { maxOutputChars: 16 * 1024 * 1024 })
  if (r.spawnError) throw new FitError(`cannot run ${bin}: ${r.spawnError}`)
  return { code: r.code, stdout: r.stdout, stderr: r.stderr }
}

/** Runs the dry run; a plan it gave up on comes back as outcome "failed" with its reason. */
export async function llamaFitDryRun(
  fitParams: string,
  serverArgs: readonly string[],
  headroomMiB: number,
  run: RunProcess = runProcess,
  timeoutMs = 180_000,
): Promise<LlamaFitPlan> {
  const out = await run(fitParams, dryRunArgs(serverArgs, headroomMiB), timeoutMs)
  const plan = parseLlamaFitPlan(out.stderr, out.code === 0 ? out.stdout : '')
  if (plan) return plan
  const last = out.stderr.trim().split(/\r?\n/).slice(-2).join(' | ')
  throw new FitError(`llama-fit-params ended (exit ${out.code}) without a fit plan: ${last || 'no output'}`)
}
