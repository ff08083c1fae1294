import type { LlamaFitDevice, LlamaFitPlan } from '../contract/fit'
import { tokenizeCommandLine } from '../lib/command-line'

/**
 * Reads llama.cpp's own fit (common/fit.cpp in the pinned llama.cpp) from what
 * it prints: the -lv 4 log lines of llama-server or llama-fit-params, and the
 * flags llama-fit-params prints on stdout. Checked against recordings made on
 * an H200 (test/fixtures/llama-server-cuda-h200/llama-fit/).
 */

const PROJECTED = /projected to use (\d+) MiB of device memory vs\. (\d+) MiB of free device memory/
const NO_CHANGE = /(no changes needed)/
const DEVICE = /^\s*- (\S+) \((.+)\): (\d+) layers(?: \((\d+) overflowing\))?,\s+(\d+) MiB used,\s+(\d+) MiB free/
const PARTIAL = /\(n_layer, n_part, overflow_type\)=\(\d+, \d+, (UP|GATE|ATTN)\)/
const SUCCESS = /successfully fit params to free device memory/
const FAILED = /(?:failed to fit params to free device memory|encountered an error while trying to fit params to free device memory): (.+)$/
const TOOK = /fitting params to free memory took ([\d.]+) seconds/
const DRAFT = /getting device memory data for the extra model/

/** The text after the "I common_params_fit_impl: " prefix of a log line. */
function message(line: string): string {
  const m = /^[\d.]+\s+[A-Z]\s+(?:\S+\s+)?\S+?:\s(.*)$/.exec(line)
  return m?.[1] ?? line
}

/** Distinct layers with an expert tensor sent to the CPU in -ot patterns (blk\.N\.ffn_…=CPU). */
function cpuExpertLayersOf(args: readonly string[]): number | null {
  const i = args.indexOf('-ot')
  const value = i >= 0 ? args[i + 1] : undefined
  if (value === undefined) return null
  const layers = new Set<string>()
  for (const rule of value.split(',')) {
    const m = /^blk\\?\.(\d+)\\?\.ffn_.*=CPU$/i.exec(rule.trim())
    if (m?.[1] !== undefined) layers.add(m[1])
  }
  return layers.size
}

/**
 * Parses a log (and, for llama-fit-params, its stdout). Null when the text
 * holds no fit at all (fit off, an engine without it, or a log below -lv 4).
 */
export function parseLlamaFitPlan(log: string, stdout = ''): LlamaFitPlan | null {
  let outcome: LlamaFitPlan['outcome'] | null = null
  let reason: string | null = null
  let projectedMiB: number | null = null
  let freeMiB: number | null = null
  let tookS: number | null = null
  let partialLayer = false
  let includesDraft = false
  const devices = new Map<string, LlamaFitDevice>()
  for (const line of log.split(/\r?\n/)) {
    const text = message(line)
    let m: RegExpExecArray | null
    if ((m = PROJECTED.exec(text)) && projectedMiB === null) {
      projectedMiB = Number(m[1])
      freeMiB = Number(m[2])
    } else if ((m = DEVICE.exec(text))) {
      const [, id = '', name = '', layers = '0', overflowing = '0', used = '0', free = '0'] = m
      devices.set(id, { id, name, layers: Number(layers), overflowing: Number(overflowing), usedMiB: Number(used), freeMiB: Number(free) })
    } else if ((m = PARTIAL.exec(text))) partialLayer = true
    else if (SUCCESS.test(text)) outcome = outcome === 'unchanged' ? 'unchanged' : 'fitted'
    else if ((m = FAILED.exec(text))) {
      outcome = 'failed'
      reason = (m[1] ?? '').trim()
    } else if ((m = TOOK.exec(text))) tookS = Number(m[1])
    else if (DRAFT.test(text)) includesDraft = true
    else if (NO_CHANGE.test(text) && /fit/.test(line)) outcome = 'unchanged'
  }
  const args = stdout.trim() === '' ? [] : tokenizeCommandLine(stdout.trim().split('\n').pop() ?? '', { dialect: 'posix' })
  if (outcome === null && args.length === 0) return null
  const fromArgs = cpuExpertLayersOf(args)
  const overflowing = [...devices.values()].reduce((n, d) => n + d.overflowing, 0)
  return {
    outcome: outcome ?? 'fitted',
    reason,
    projectedMiB,
    freeMiB,
    devices: [...devices.values()],
    cpuExpertLayers: fromArgs ?? (devices.size > 0 ? overflowing : null),
    partialLayer,
    args,
    includesDraft,
    tookS,
  }
}
