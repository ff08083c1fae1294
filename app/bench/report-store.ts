import { mkdir, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BenchHardware, BenchReport, BenchResult, BenchTarget } from '../contract/bench'
import { writeFileAtomic } from '../lib/atomic-write'
import { sameHardware } from './hardware'

export const BENCH_DIR = 'bench'

export function benchDir(home: string): string {
  return join(home, BENCH_DIR)
}

/** Stores a report as <home>/bench/<time>-<kind>.json (atomic); returns the path. */
export async function saveReport(home: string, report: BenchReport): Promise<string> {
  const dir = benchDir(home)
  await mkdir(dir, { recursive: true })
  const stamp = report.createdAt.replace(/[:.]/g, '-')
  let path = join(dir, `${stamp}-${report.kind}.json`)
  const names = new Set(await readdir(dir))
  for (let n = 2; names.has(path.slice(dir.length + 1)); n++) path = join(dir, `${stamp}-${report.kind}-${n}.json`)
  await writeFileAtomic(path, `${JSON.stringify({ ...report, file: path }, null, 2)}\n`)
  return path
}

function looksLikeReport(x: unknown): x is BenchReport {
  if (typeof x !== 'object' || x === null) return false
  const r = x as Partial<BenchReport>
  return typeof r.createdAt === 'string' && Array.isArray(r.results) && typeof r.hardware === 'object' && r.hardware !== null
}

/** A report saved before the fork had its own name keeps it as `engine` in each result; it reads as `fork`. */
function withForkKey(report: BenchReport): BenchReport {
  const results = report.results.map((r) => {
    const { engine, ...rest } = r as BenchResult & { readonly engine?: string | null }
    return engine === undefined || 'fork' in r ? r : { ...rest, fork: engine }
  })
  return { ...report, results }
}

/** Stored reports, newest first; unreadable files are skipped (never deleted). */
export async function loadReports(home: string): Promise<{ file: string; report: BenchReport }[]> {
  let names: string[]
  try {
    names = await readdir(benchDir(home))
  } catch {
    return []
  }
  const out: { file: string; report: BenchReport }[] = []
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const file = join(benchDir(home), name)
    try {
      const json: unknown = JSON.parse(await readFile(file, 'utf8'))
      if (looksLikeReport(json)) out.push({ file, report: withForkKey(json) })
    } catch {
      // a damaged or foreign file: not ours to judge here
    }
  }
  return out.sort((a, b) => b.report.createdAt.localeCompare(a.report.createdAt))
}

/** The newest earlier result of exactly this launch (binary and arguments) on the same hardware. */
export function findPrevious(
  stored: readonly { file: string; report: BenchReport }[],
  target: BenchTarget,
  hardware: BenchHardware,
): BenchResult['previous'] {
  const key = JSON.stringify([target.exe, target.args])
  for (const { file, report } of stored) {
    if (!sameHardware(report.hardware, hardware)) continue
    const hit = report.results.find((r) => JSON.stringify([r.exe, r.args]) === key && r.runs.length > 0)
    if (hit) return { file, createdAt: report.createdAt, median: hit.median }
  }
  return null
}
