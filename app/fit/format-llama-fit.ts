import type { FitReport, LlamaFitPlan } from '../contract/fit'
import { LLAMA_FIT_MEASURED as M, fitTargetFor } from './llama-fit-measured'

/** What llama.cpp's plan would have the process hold on the GPU: its buffers plus the same CUDA runtime ours counts. */
export function llamaPlanProcessMiB(plan: LlamaFitPlan, report: FitReport): number | null {
  if (plan.devices.length === 0) return null
  return plan.devices.reduce((s, d) => s + d.usedMiB, 0) + report.gpuRuntimeMiB
}

function placementText(plan: LlamaFitPlan): string {
  if (plan.cpuExpertLayers === null) return 'its placement'
  if (plan.cpuExpertLayers === 0) return 'everything on the GPU'
  return `experts of ${plan.cpuExpertLayers} layers on the CPU${plan.partialLayer ? ' (one of them partly)' : ''}`
}

/** Lines for `llama-tray fit`: llama.cpp's own fit beside ours, and whether the simpler -fitt profile is as good. */
export function formatLlamaFit(plan: LlamaFitPlan, report: FitReport, headroomMiB: number): string[] {
  const lines: string[] = []
  const took = plan.tookS === null ? '' : `; fitting took ${plan.tookS} s, spent at every start`
  if (plan.outcome === 'failed') {
    lines.push(`llama.cpp's own fit gave up: ${plan.reason ?? 'no reason printed'}${took}.`)
    return lines
  }
  if (plan.outcome === 'unchanged') {
    lines.push(`llama.cpp's own fit: the given flags already fit (projected ${plan.projectedMiB ?? '?'} MiB), nothing to change${took}.`)
    return lines
  }
  const process = llamaPlanProcessMiB(plan, report)
  const used = plan.devices.map((d) => `${d.usedMiB} MiB on ${d.id}`).join(', ')
  lines.push(
    `llama.cpp's own fit (-fitt ${headroomMiB}): ${placementText(plan)}, ` +
      `${used || 'buffers not printed'}${process === null ? '' : ` + ${report.gpuRuntimeMiB} MiB runtime ≈ ${process} MiB`}${took}.`,
  )
  lines.push(`  ours: --n-cpu-moe ${report.nCpuMoe}, ${report.gpuProcessMiB} MiB.`)
  if (process !== null && report.budgetMiB !== null) {
    // Same basis as ours: llama.cpp's buffers plus the runtime, which includes what the first request adds.
    const afterFirst = process
    const asGood = (plan.cpuExpertLayers ?? Infinity) <= report.nCpuMoe && afterFirst <= report.budgetMiB
    lines.push(
      asGood
        ? `  As good here: a profile without -ngl/--n-cpu-moe and with -fitt ${fitTargetFor(headroomMiB)} lets llama.cpp place it (at ` +
            `the cost of the fit at every start).`
        : `  Ours keeps the headroom; llama.cpp's plan would use ${Math.max(0, Math.round(afterFirst - report.budgetMiB))} MiB of it ` +
            `once the first request runs (it counts memory at load).`,
    )
  }
  if (!plan.includesDraft && report.draft !== null)
    lines.push("  llama-fit-params takes no draft (-md), so its plan is without it; llama-server's fit at start counts the draft.")
  lines.push(
    `  Measured on ${M.gpu} with ${M.model}: llama.cpp's plan held ${M.llamaMiB} MiB after the first request (budget ${M.budgetMiB}), ` +
      `ours ${M.oursMiB} MiB.`,
  )
  return lines
}
