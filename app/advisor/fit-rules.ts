import type { WarningFix } from '../contract/warnings'
import { has, lastValue, usesOf } from '../contract/flag-args'
import { DEFAULT_HEADROOM_MIB } from '../fit/fit-report'
import { LLAMA_FIT_MEASURED as M, fitTargetFor } from '../fit/llama-fit-measured'
import { F } from './flag-names'
import type { LintFinding, LintInput, LintRule } from './lint-input'

/**
 * llama.cpp's own fit (`--fit`, on by default in mainline since it gained the
 * flag) beside ours: when a profile hand-picks its offload, and when it leaves
 * the fit to llama.cpp with a target under the headroom the app keeps.
 */

/** The offload flags a profile can hand-pick; llama.cpp's fit leaves them alone. */
const OFFLOAD = [F.gpuLayers, F.nCpuMoe, F.cpuMoe, F.overrideTensor, F.tensorSplit] as const

function handPicked(args: readonly string[]): string[] {
  return OFFLOAD.flatMap((names) =>
    usesOf(args, names)
      .slice(0, 1)
      .map((u) => (u.value === null ? u.flag : `${u.flag} ${u.value}`)),
  )
}

/** Whether llama.cpp's fit runs for these arguments: an engine that has --fit (mainline: on unless turned off). */
function fitActive(input: LintInput): boolean {
  if (!input.binaryInfo || input.binaryInfo.fork !== 'mainline' || !input.binaryInfo.flags.has('--fit')) return false
  const v = lastValue(input.args, F.fit)
  return v === null || /^(on|1|true)$/i.test(v)
}

/** Models from this size up are placed by the fit on an 8 GB GPU rather than loaded whole. */
const FITTED_MODEL_BYTES = 4 * 1024 ** 3

const fix = (label: string, removeArgs: readonly string[], addArgs: readonly string[]): WarningFix => ({ label, removeArgs, addArgs })

const measured =
  `Measured on ${M.gpu} with ${M.model}: llama.cpp's plan held ${M.llamaMiB} MiB after the first request, ${M.llamaMiB - M.budgetMiB} ` +
  `MiB into the ${M.headroomMiB} MiB headroom ` +
  `(its fit counts memory at load, not the ~${M.firstRequestMiB} MiB the first request adds), and fitting took ${M.llamaFitS} s at ` +
  `every start ` +
  `(ready in ${M.readyWithFitS} s against ${M.readyHandPickedS} s); Llama Tray's fit chose --n-cpu-moe ${M.oursNCpuMoe}, which held ` +
  `${M.oursMiB} ` +
  `MiB.`

export const FIT_RULES: readonly LintRule[] = [
  {
    id: 'lint.fit-hand-picked',
    level: 'info',
    summary: 'the offload is hand-picked, so llama.cpp’s own fit (on by default) only keeps it or gives up',
    check: (input) => {
      if (!fitActive(input) || has(input.args, F.fit)) return []
      const picked = handPicked(input.args)
      if (picked.length === 0) return []
      const target = fitTargetFor(DEFAULT_HEADROOM_MIB)
      const finding: LintFinding = {
        id: 'lint.fit-hand-picked',
        rule: 'lint.fit-hand-picked',
        level: 'info',
        headline: `Setting ${picked.join(', ')} picks the offload by hand, so llama.cpp's own fit cannot adjust it.`,
        reason:
          `Its fit (on by default) keeps the offload when it fits and gives up ("already set by user") when it does not. The ` +
          `alternative is to drop these flags and let llama.cpp place the layers with -fitt ${target}. ${measured} Keep the ` +
          `hand-picked flags for the faster start, or compare both with llama-tray bench.`,
        fix: fix(
          `Let llama.cpp fit (-fitt ${target})`,
          [...F.gpuLayers, ...F.nCpuMoe, ...F.cpuMoe, ...F.overrideTensor, ...F.tensorSplit, ...F.fitTarget],
          ['-fitt', String(target)],
        ),
      }
      return [finding]
    },
  },
  {
    id: 'lint.fit-target-headroom',
    level: 'warn',
    summary: 'llama.cpp’s fit places the layers with a target (-fitt) under the headroom the app keeps free',
    check: (input) => {
      if (!fitActive(input) || handPicked(input.args).length > 0) return []
      const given = lastValue(input.args, F.fitTarget)
      // Only where placement matters: a target given, or a model big enough that a laptop GPU must share it with the CPU.
      if (given === null && (input.model === null || input.model.fileBytes < FITTED_MODEL_BYTES)) return []
      const current = given === null ? 1024 : Number(given.split(',')[0])
      const target = fitTargetFor(DEFAULT_HEADROOM_MIB)
      if (!Number.isFinite(current) || current >= target) return []
      const finding: LintFinding = {
        id: 'lint.fit-target-headroom',
        rule: 'lint.fit-target-headroom',
        level: 'warn',
        headline: `The fit of llama.cpp leaves only ${current} MiB of VRAM free, under the ${DEFAULT_HEADROOM_MIB} MiB this app keeps free.`,
        reason:
          `That is ${given === null ? 'its default' : 'the -fitt given'}; the ${DEFAULT_HEADROOM_MIB} MiB are for the desktop and ` +
          `the KV cache, and the first request adds about ${M.firstRequestMiB} MiB more. Set -fitt ${target}. ${measured}`,
        fix: fix(`Keep ${DEFAULT_HEADROOM_MIB} MiB free (-fitt ${target})`, [...F.fitTarget], ['-fitt', String(target)]),
      }
      return [finding]
    },
  },
]
