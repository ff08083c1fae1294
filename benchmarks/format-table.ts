import type { BenchRow } from './bench-row'

// NaN: the figure could not be measured here (no GPU data, no samples).
const fmt = (n: number): string =>
  Number.isNaN(n) ? 'n/a' : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 1 ? n.toFixed(2) : n.toPrecision(3)

/** A plain-text table: figure, unit, baseline, and ours ÷ baseline. */
export function formatTable(rows: readonly BenchRow[]): string {
  const header = ['group', 'figure', 'value', 'unit', 'baseline', 'ratio', 'baseline is']
  const body = rows.map((r) => [
    r.group,
    r.name,
    fmt(r.value),
    r.unit,
    r.baseline === undefined ? '' : fmt(r.baseline),
    r.baseline === undefined || r.baseline === 0 ? '' : `${(r.value / r.baseline).toFixed(3)}×`,
    r.baselineName ?? '',
  ])
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] as string).length)))
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd()
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n')
}
