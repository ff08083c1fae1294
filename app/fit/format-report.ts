import { asSentence } from '../contract/wording'
import type { FitDeviceMemory, FitReport } from '../contract/fit'

function line(label: string, d: FitDeviceMemory): string {
  const f = (n: number): string => n.toFixed(0).padStart(7)
  return `  ${label.padEnd(12)}${f(d.weightsMiB)}${f(d.kvMiB)}${f(d.recurrentMiB)}${f(d.computeMiB)}${f(d.totalMiB)}`
}

/** The human-readable `fit` answer. */
export function formatFitReport(r: FitReport): string {
  const p = r.placement
  const out: string[] = []
  out.push(
    `${r.model.path}: ${r.model.architecture}, ${r.model.layers} layers (${r.model.attentionLayers} attention, ` +
      `${r.model.recurrentLayers} ` +
      `recurrent, ${r.model.expertLayers} with experts), ${r.model.fileMiB.toFixed(0)} MiB`,
  )
  if (r.draftModel)
    out.push(
      `Draft ${r.draftModel.path}: ${r.draftModel.architecture}, ${r.draftModel.layers} layers, ${r.draftModel.fileMiB.toFixed(0)} MiB`,
    )
  out.push(
    `Placement: -ngl ${p.nGpuLayers} --n-cpu-moe ${p.nCpuMoe}${p.cpuMoe ? ' --cpu-moe' : ''}${p.overrideTensors.map((o) => ` -ot ${o}`).join('')} ` +
      `-c ${p.ctx} -np ${p.parallel}${p.kvUnified ? ' -kvu' : ''} -ctk ` +
      `${p.cacheTypeK} -ctv ${p.cacheTypeV} -ub ${p.ubatch}${p.draftGpuLayers !== null ? ` -ngld ${p.draftGpuLayers}` : ''}`,
  )
  out.push('  MiB          weights     KV  recur compute  total')
  out.push(line('GPU model', r.gpu))
  if (r.draft) out.push(line('GPU draft', r.draft.gpu))
  out.push(line('GPU total', r.total.gpu))
  if (r.gpuRuntimeMiB > 0)
    out.push(`  + CUDA runtime ${r.gpuRuntimeMiB.toFixed(0).padStart(5)}  = GPU process ${r.gpuProcessMiB.toFixed(0)} MiB`)
  out.push(line('host model', r.host))
  if (r.draft) out.push(line('host draft', r.draft.host))
  out.push(line('host total', r.total.host))
  if (r.budgetMiB !== null) {
    out.push(`Budget: ${r.freeVramMiB} MiB free (${r.vramSource}) − ${r.headroomMiB} MiB headroom = ${r.budgetMiB} MiB`)
    out.push(
      r.fits
        ? `Fits: --n-cpu-moe ${r.nCpuMoe} (GPU ${r.gpuProcessMiB} MiB, ${(r.budgetMiB - r.gpuProcessMiB).toFixed(0)} MiB to spare)`
        : `Does not fit: GPU ${r.gpuProcessMiB} MiB > ${r.budgetMiB} MiB`,
    )
  }
  for (const n of r.notes) out.push(`Note: ${asSentence(n)}`)
  return out.join('\n')
}
