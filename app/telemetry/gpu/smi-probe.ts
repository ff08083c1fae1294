import type { GpuDevice } from '../../contract/telemetry'
import { formatSeconds } from '../../lib/process/process-group'
import { runOnce, type RunOnceResult } from '../../lib/process/run-once'
import { parseSmiLine } from './smi-csv'
import { SMI_FIELDS, SMI_FIELD_ALIASES, findRejectedField, queryArgument, type SmiField } from './smi-fields'

export type SmiProbeResult =
  | { readonly ok: true; readonly fields: readonly SmiField[]; readonly devices: readonly GpuDevice[] }
  | { readonly ok: false; readonly reason: string }

export const CSV_FORMAT = '--format=csv,noheader,nounits'

/** A hung nvidia-smi, in one sentence: its usual cause is the driver, not nvidia-smi. */
export function smiTimeoutMessage(timeoutMs: number): string {
  return `nvidia-smi did not answer within ${formatSeconds(timeoutMs)}; the driver may be stuck.`
}

function describeFailure(r: RunOnceResult, timeoutMs: number): string {
  if (r.spawnError) return `nvidia-smi could not be started (${r.spawnError})`
  if (r.timedOut) return smiTimeoutMessage(timeoutMs)
  const text = `${r.stdout}\n${r.stderr}`.trim().split('\n')[0] ?? ''
  return `nvidia-smi failed (exit ${r.code ?? 'signal'})${text ? `: ${text}` : ''}`
}

/**
 * Finds a field list this driver accepts, once: asks for the R535+ names, and on
 * `Field "x" is not a valid field to query` swaps in x's older name or drops x
 * (index is required). Each try is one short nvidia-smi run with a hard timeout.
 */
export async function probeSmiFields(
  exe: string,
  timeoutMs = 5000,
  env: NodeJS.ProcessEnv = process.env,
  wanted: readonly SmiField[] = SMI_FIELDS,
): Promise<SmiProbeResult> {
  let fields = [...wanted]
  for (let attempt = 0; attempt <= wanted.length; attempt++) {
    const r = await runOnce(exe, [queryArgument(fields), CSV_FORMAT], timeoutMs, env)
    if (r.code === 0) {
      const devices = r.stdout
        .split(/\r?\n/)
        .map((l) => parseSmiLine(l, fields))
        .filter((d): d is GpuDevice => d !== null)
      if (devices.length === 0) return { ok: false, reason: 'nvidia-smi lists no GPU' }
      return { ok: true, fields, devices }
    }
    const rejected = findRejectedField(`${r.stdout}\n${r.stderr}`)
    if (rejected === null || rejected === 'index') return { ok: false, reason: describeFailure(r, timeoutMs) }
    const alias = SMI_FIELD_ALIASES[rejected]
    fields = fields.flatMap((f) => (f.query !== rejected ? [f] : alias ? [{ ...f, query: alias }] : []))
  }
  return { ok: false, reason: 'nvidia-smi refused every field list' }
}
