import { asSentence } from '../contract/wording'
import type { BenchReport, BenchResult } from '../contract/bench'
import { formatEnergy } from '../contract/energy'

const num = (n: number | null, digits = 1): string => (n === null ? '—' : n.toFixed(digits))
const pct = (n: number | null): string => (n === null ? '—' : `${(n * 100).toFixed(0)}%`)
const times = (n: number | null): string => (n === null ? '' : ` (×${n.toFixed(2)})`)

function promptFigure(r: BenchResult, prompt: string, key: 'tokensPerSecond' | 'promptTokensPerSecond'): number | null {
  return r.prompts.find((p) => p.prompt === prompt)?.median[key] ?? null
}

/** Column headers and one row of cells per result: the seed's engine × model × KV cache table. */
export function tableCells(report: BenchReport): { header: string[]; rows: string[][] } {
  const prompts = report.config.prompts
  const base = report.results[0]
  const header = [
    'profile',
    'fork',
    'model',
    'KV cache',
    'draft',
    'n-cpu-moe',
    ...prompts.map((p) => `decode ${p} tok/s`),
    ...prompts.map((p) => `prompt ${p} tok/s`),
    'GPU energy /1k tok',
    'draft accept',
    'spread ±%',
    'min free VRAM MiB',
    'disturbed',
  ]
  const rows = report.results.map((r) => [
    r.label,
    r.fork ?? '?',
    r.model ?? '?',
    r.kvCache,
    r.draftModel ?? '—',
    r.nCpuMoe === null ? '—' : String(r.nCpuMoe),
    ...prompts.map((p) => {
      const v = promptFigure(r, p, 'tokensPerSecond')
      const b = base ? promptFigure(base, p, 'tokensPerSecond') : null
      return `${num(v)}${r === base || v === null || b === null || b === 0 ? '' : times(v / b)}`
    }),
    ...prompts.map((p) => {
      const v = promptFigure(r, p, 'promptTokensPerSecond')
      const b = base ? promptFigure(base, p, 'promptTokensPerSecond') : null
      return `${num(v)}${r === base || v === null || b === null || b === 0 ? '' : times(v / b)}`
    }),
    r.median.joulesPer1000Tokens == null ? 'n/a' : formatEnergy(r.median.joulesPer1000Tokens),
    pct(r.median.draftAcceptance),
    r.tokensPerSecondSpread ? num(r.tokensPerSecondSpread.robustCvPct) : '—',
    num(r.minFreeVramMiB, 0),
    `${r.disturbedRuns}/${r.runs.length}`,
  ])
  return { header, rows }
}

/** A plain-text table for the terminal, with notes and the tune's verdict. */
export function formatReportText(report: BenchReport): string {
  const { header, rows } = tableCells(report)
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)))
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd()
  const out = [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)]
  for (const r of report.results) {
    if (r.previous)
      out.push(
        `${r.label}: earlier on this machine (${r.previous.createdAt}): ${num(r.previous.median.tokensPerSecond)} tok/s decode, now ` +
          `${num(r.median.tokensPerSecond)}`,
      )
  }
  const tune = report.tune
  if (tune) {
    out.push(
      '',
      `fit suggestion: ${tune.fitSuggestion === null ? 'none (no GPU data)' : `--n-cpu-moe ${tune.fitSuggestion}`}; free VRAM with the ` +
        `server stopped: ${num(tune.idleFreeVramMiB, 0)} MiB; headroom ${tune.headroomMiB} MiB`,
    )
    for (const c of tune.candidates) {
      out.push(
        `  --n-cpu-moe ${c.nCpuMoe}${c.draft ? ' + draft' : ''}: ` +
          `${c.status === 'benched' ? `${num(c.tokensPerSecond)} tok/s, ${num(c.minFreeVramMiB, 0)} MiB free` : `${c.status}: ${c.reason ?? ''}`}`,
      )
    }
    out.push(
      tune.recommended
        ? `recommended: --n-cpu-moe ${tune.recommended.nCpuMoe}${tune.recommended.draft ? ' with the draft' : ''} (` +
            `${num(tune.recommended.tokensPerSecond)} ` +
            `tok/s)`
        : 'no recommendation',
    )
    if (tune.savedProfileId) out.push(`saved as profile ${tune.savedProfileId}`)
  }
  for (const n of report.notes) out.push(`Note: ${asSentence(n)}`)
  if (report.file) out.push(`stored in ${report.file}`)
  return out.join('\n')
}

const mdCell = (s: string): string => s.replace(/\|/g, '\\|')

export function formatReportMarkdown(report: BenchReport): string {
  const { header, rows } = tableCells(report)
  const hw = report.hardware
  const lines = [
    `| ${header.map(mdCell).join(' | ')} |`,
    `|${header.map((_, i) => (i >= 6 ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(mdCell).join(' | ')} |`),
    '',
    `${report.config.tokens} generated tokens per run, ${report.config.runs} run(s) per prompt × ${report.config.rounds} round(s), ` +
      `sampling RNG ${report.config.seed}; medians; ×: ratio to the first row.`,
    `Machine: ${hw.cpuModel} (${hw.cpuCores} threads), ${hw.ramTotalMiB} MiB RAM, ` +
      `${hw.gpus.map((g) => `${g.name ?? 'GPU'} ${g.memoryTotalMiB ?? '?'} MiB`).join(', ') || 'no GPU data'}; ${hw.platform} ` +
      `${hw.release}.`,
  ]
  return lines.join('\n')
}

const csvCell = (v: string | number | null): string => {
  if (v === null) return ''
  const s = String(v)
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

/** One row per run, with the result's identity and medians: for spreadsheets. */
export function formatReportCsv(report: BenchReport): string {
  const header = [
    'profile_id',
    'label',
    'fork',
    'model',
    'kv_cache',
    'draft',
    'n_cpu_moe',
    'prompt',
    'round',
    'run',
    'prompt_tokens',
    'prompt_tok_s',
    'generated_tokens',
    'decode_tok_s',
    'gpu_energy_j',
    'draft_acceptance',
    'min_free_vram_mib',
    'peak_vram_used_mib',
    'max_gpu_temp_c',
    'cpu_system_pct',
    'disturbed',
    'median_decode_tok_s',
    'decode_ratio_vs_first',
    'args',
  ]
  const lines = [header.join(',')]
  report.results.forEach((r, i) => {
    const ratio = report.ratios[i]?.tokensPerSecond ?? null
    for (const run of r.runs) {
      lines.push(
        [
          r.profileId,
          r.label,
          r.fork,
          r.model,
          r.kvCache,
          r.draftModel,
          r.nCpuMoe,
          run.prompt,
          run.round,
          run.index,
          run.promptTokens,
          run.promptTokensPerSecond,
          run.generatedTokens,
          run.tokensPerSecond,
          run.energyJ ?? null,
          run.draftAcceptance,
          run.minFreeVramMiB,
          run.peakVramUsedMiB,
          run.maxGpuTemperatureC,
          run.cpuSystemPct === null ? null : Number(run.cpuSystemPct.toFixed(1)),
          run.disturbed ? 1 : 0,
          r.median.tokensPerSecond,
          ratio,
          [r.exe, ...r.args].join(' '),
        ]
          .map(csvCell)
          .join(','),
      )
    }
  })
  return `${lines.join('\n')}\n`
}
