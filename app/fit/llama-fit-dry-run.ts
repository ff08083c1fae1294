import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { LlamaFitPlan } from '../contract/fit'
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
const KEPT = new Set(['model', 'ctx-size', 'parallel', 'cache-type-k', 'cache-type-v', 'batch-size', 'ubatch-size', 'flash-attn', 'kv-unified', 'swa-full', 'fit-ctx'])

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

const runProcess: RunProcess = (bin, args, timeoutMs) =>
  new Promise((resolve, reject) => {
    const child = spawn(bin, [...args], { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true, timeout: timeoutMs })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c))
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c))
    child.once('error', (err) => reject(new FitError(`cannot run ${bin}: ${err.message}`)))
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })

/** Runs the dry run; a plan it gave up on comes back as outcome "failed" with its reason. */
export async function llamaFitDryRun(fitParams: string, serverArgs: readonly string[], headroomMiB: number, run: RunProcess = runProcess, timeoutMs = 180_000): Promise<LlamaFitPlan> {
  const out = await run(fitParams, dryRunArgs(serverArgs, headroomMiB), timeoutMs)
  const plan = parseLlamaFitPlan(out.stderr, out.code === 0 ? out.stdout : '')
  if (plan) return plan
  const last = out.stderr.trim().split(/\r?\n/).slice(-2).join(' | ')
  throw new FitError(`llama-fit-params ended (exit ${out.code}) without a fit plan: ${last || 'no output'}`)
}
