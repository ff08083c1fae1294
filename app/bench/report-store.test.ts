import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { benchDir, loadReports } from './report-store'

const homes: string[] = []
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true })
})

/** A stored report as a file on disk, with the given results (only what loadReports looks at is filled in). */
function storeReport(home: string, name: string, createdAt: string, results: readonly Record<string, unknown>[]): void {
  mkdirSync(benchDir(home), { recursive: true })
  const report = { kind: 'bench', createdAt, hardware: { platform: 'linux' }, results, ratios: [], notes: [], file: null, tune: null }
  writeFileSync(join(benchDir(home), name), JSON.stringify(report))
}

describe('loadReports', () => {
  it('reads the fork of a report saved under the old `engine` key as `fork`, and a new one as it is', async () => {
    const home = mkdtempSync(join(tmpdir(), 'llama-tray-bench-reports-'))
    homes.push(home)
    storeReport(home, 'old.json', '2026-01-01T00:00:00.000Z', [{ label: 'a', exe: 'llama-server', args: [], engine: 'ik_llama' }])
    storeReport(home, 'new.json', '2026-02-01T00:00:00.000Z', [{ label: 'b', exe: 'llama-server', args: [], fork: 'buun' }])
    const [newer, older] = await loadReports(home)
    expect(newer?.report.results.map((r) => [r.label, r.fork, 'engine' in r])).toEqual([['b', 'buun', false]])
    expect(older?.report.results.map((r) => [r.label, r.fork, 'engine' in r])).toEqual([['a', 'ik_llama', false]])
  })
})
