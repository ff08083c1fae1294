import { calibrate, PARTS } from './gpu-calibration/calibration'
import type { BenchRow } from './bench-row'

/**
 * The fit estimator against the real llama-server (CPU build, tiny models):
 * one row per configuration, model and part, the estimate next to what the
 * server reported (the baseline), plus the worst relative error per part.
 */
export async function benchFit(bin: string, modelsDir: string): Promise<BenchRow[]> {
  const rows = await calibrate(bin, modelsDir)
  const out: BenchRow[] = rows.map((r) => ({
    group: 'fit',
    name: `${r.config} ${r.which} ${r.part}`,
    value: r.estimatedMiB,
    unit: 'MiB',
    baseline: r.reportedMiB,
    baselineName: 'llama-server -lv 4',
  }))
  for (const part of PARTS) {
    const worst = Math.max(...rows.filter((r) => r.part === part).map((r) => Math.abs(r.error)))
    out.push({ group: 'fit', name: `worst ${part} error`, value: Math.round(worst * 1000) / 10, unit: '%' })
  }
  return out
}
