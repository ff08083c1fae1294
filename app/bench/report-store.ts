import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import type { BenchHardware, BenchReport, BenchResult, BenchTarget } from '../contract/bench'
import { versionedCodec } from '../lib/json-store/json-codec'
import type { JsonCodec } from '../lib/json-store/json-codec'
import type { JsonStore } from '../lib/json-store/json-store'
import { openJsonStore } from '../lib/json-store/registry'
import { sameHardware } from './hardware'

export const BENCH_DIR = 'bench'

export function benchDir(home: string): string {
  return join(home, BENCH_DIR)
}

// What a report file must hold to be listed; the rest of BenchReport is kept as written (a report
// is written once by this code and only read after). Version 1 includes the unversioned files of
// earlier releases.
const StoredReportSchema = z.looseObject({
  version: z.literal(1),
  kind: z.string(),
  createdAt: z.string(),
  hardware: z.looseObject({}),
  results: z.array(z.unknown()),
})
type StoredReport = BenchReport & { readonly version: 1 }

const versioned = versionedCodec({ schema: StoredReportSchema, version: 1 })

/** A report file: null while there is none (a name not taken yet). */
const reportCodec: JsonCodec<StoredReport | null> = {
  decode: (json) => {
    const decoded = versioned.decode(json)
    return decoded.kind === 'invalid' ? decoded : { ...decoded, value: decoded.value as unknown as StoredReport }
  },
  encode: (value) => {
    if (value === null) throw new Error('no report to write')
    return versioned.encode(value as unknown as z.infer<typeof StoredReportSchema>)
  },
}

/** The one store of a report file in this process. */
function openReport(file: string): JsonStore<StoredReport | null> {
  return openJsonStore<StoredReport | null>({ path: file, label: 'bench report', codec: reportCodec, defaults: () => null })
}

const withoutVersion = ({ version: _version, ...report }: StoredReport): BenchReport => report

class NameTaken extends Error {}

/**
 * Stores a report as <home>/bench/<time>-<kind>.json (locked and atomic; a name another process
 * took meanwhile gets the next free one, `-2`, `-3`, ...); returns the path.
 */
export async function saveReport(home: string, report: BenchReport): Promise<string> {
  const dir = benchDir(home)
  const stamp = report.createdAt.replace(/[:.]/g, '-')
  const names = new Set(await readdir(dir).catch(() => []))
  for (let n = 1; ; n++) {
    const name = n === 1 ? `${stamp}-${report.kind}.json` : `${stamp}-${report.kind}-${n}.json`
    if (names.has(name)) continue
    const file = join(dir, name)
    try {
      await openReport(file).update((current) => {
        if (current !== null) throw new NameTaken()
        return { ...report, file, version: 1 }
      })
      return file
    } catch (err) {
      if (!(err instanceof NameTaken)) throw err
    }
  }
}

/** A report saved before the fork had its own name keeps it as `engine` in each result; it reads as `fork`. */
function withForkKey(report: BenchReport): BenchReport {
  const results = report.results.map((r) => {
    const { engine, ...rest } = r as BenchResult & { readonly engine?: string | null }
    return engine === undefined || 'fork' in r ? r : { ...rest, fork: engine }
  })
  return { ...report, results }
}

/**
 * Stored reports, newest first. A damaged report is moved aside as `<file>.corrupt-<time>` (never
 * deleted) with a sentence passed to `onNotice`; a file that cannot be read is left out with its sentence.
 */
export async function loadReports(
  home: string,
  onNotice: (message: string) => void = () => undefined,
): Promise<{ file: string; report: BenchReport }[]> {
  let names: string[]
  try {
    names = await readdir(benchDir(home))
  } catch {
    return []
  }
  const out: { file: string; report: BenchReport }[] = []
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const file = join(benchDir(home), name)
    const store = openReport(file)
    try {
      const stored = await store.load()
      for (const notice of store.notices) onNotice(notice)
      if (stored !== null) out.push({ file, report: withForkKey(withoutVersion(stored)) })
    } catch (err) {
      onNotice((err as Error).message)
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
