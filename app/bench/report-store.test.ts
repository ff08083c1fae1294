import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { BenchReport } from '../contract/bench'
import { hardwareSnapshot } from './hardware'
import { benchDir, findPrevious, loadReports, saveReport } from './report-store'

let home: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'llama-tray-bench-reports-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

const hardware = hardwareSnapshot(null)
const target = {
  profileId: 'p1',
  profileName: 'Qwen',
  label: 'Qwen',
  exe: '/bin/llama-server',
  args: ['-m', 'model.gguf'],
  fork: null,
  model: 'model.gguf',
  draftModel: null,
  kvCache: 'f16',
  nCpuMoe: null,
}
const figures = { promptTokensPerSecond: 400, tokensPerSecond: 42, draftAcceptance: null }

function report(createdAt: string, tokensPerSecond = 42): BenchReport {
  const run = { prompt: 'short', round: 0, index: 0, tokensPerSecond } as BenchReport['results'][number]['runs'][number]
  return {
    kind: 'bench',
    createdAt,
    hardware,
    config: { runs: 1, rounds: 1, tokens: 64, seed: 1, prompts: ['short'], warmupTokens: 8 },
    results: [
      {
        ...target,
        runs: [run],
        median: { ...figures, tokensPerSecond },
        medianOver: 'all',
        tokensPerSecondSpread: null,
        promptTokensPerSecondSpread: null,
        prompts: [],
        disturbedRuns: 0,
        minFreeVramMiB: null,
        peakVramUsedMiB: null,
        loadMs: 1200,
        previous: null,
      },
    ],
    ratios: [],
    file: null,
    notes: [],
    tune: null,
  }
}

describe('bench report store', () => {
  it('stores each report in its own versioned file, a second one of the same moment beside it, and lists them newest first', async () => {
    const first = await saveReport(home, report('2026-03-01T10:00:00.000Z', 40))
    const twin = await saveReport(home, report('2026-03-01T10:00:00.000Z', 41))
    const later = await saveReport(home, report('2026-03-02T10:00:00.000Z', 43))
    expect(first).toBe(join(benchDir(home), '2026-03-01T10-00-00-000Z-bench.json'))
    expect(twin).toBe(join(benchDir(home), '2026-03-01T10-00-00-000Z-bench-2.json'))
    expect(JSON.parse(await readFile(first, 'utf8'))).toMatchObject({ version: 1, file: first, createdAt: '2026-03-01T10:00:00.000Z' })
    const stored = await loadReports(home)
    expect(stored.map((s) => s.file)).toEqual([later, expect.any(String), expect.any(String)])
    expect(stored[0]!.report).toEqual({ ...report('2026-03-02T10:00:00.000Z', 43), file: later })
    expect(findPrevious(stored, target, hardware)).toEqual({
      file: later,
      createdAt: '2026-03-02T10:00:00.000Z',
      median: { ...figures, tokensPerSecond: 43 },
    })
  })

  it('lists the unversioned report files of earlier releases', async () => {
    await mkdir(benchDir(home))
    const file = join(benchDir(home), '2026-01-01T00-00-00-000Z-bench.json')
    await writeFile(file, JSON.stringify({ ...report('2026-01-01T00:00:00.000Z'), file }))
    expect((await loadReports(home)).map((s) => s.report)).toEqual([{ ...report('2026-01-01T00:00:00.000Z'), file }])
  })

  it.each([
    ['truncated', '{"kind":"bench","createdAt":"2026-'],
    ['empty', ''],
    ['not a report', '{"hello":"world"}'],
  ])('a damaged report (%s) is moved aside as it was, named in a notice, and the others still listed', async (_name, text) => {
    const good = await saveReport(home, report('2026-03-01T10:00:00.000Z'))
    const damaged = join(benchDir(home), '2026-03-02T10-00-00-000Z-bench.json')
    await writeFile(damaged, text)
    const notices: string[] = []
    expect((await loadReports(home, (n) => notices.push(n))).map((s) => s.file)).toEqual([good])
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatch(
      /^The bench report .*2026-03-02T10-00-00-000Z-bench\.json could not be read \(.+\); it was moved to .*\.corrupt-.*\.$/,
    )
    const aside = (await readdir(benchDir(home))).filter((n) => n.includes('.corrupt-'))
    expect(aside).toHaveLength(1)
    expect(await readFile(join(benchDir(home), aside[0]!), 'utf8')).toBe(text)
    // Set aside once: the next listing has nothing more to say.
    const again: string[] = []
    expect((await loadReports(home, (n) => again.push(n))).map((s) => s.file)).toEqual([good])
    expect(again).toEqual([])
  })

  it('a report file that cannot be read is left out with one sentence, and left where it is', async () => {
    await mkdir(join(benchDir(home), '2026-03-03T10-00-00-000Z-bench.json'), { recursive: true })
    const notices: string[] = []
    expect(await loadReports(home, (n) => notices.push(n))).toEqual([])
    expect(notices).toEqual([
      `${join(benchDir(home), '2026-03-03T10-00-00-000Z-bench.json')} is a folder where Llama Tray keeps its bench report; ` +
        'move that folder away and try again.',
    ])
  })
})

/** A stored report as a file on disk, with the given results (only what loadReports looks at is filled in). */
async function storeReport(name: string, createdAt: string, results: readonly Record<string, unknown>[]): Promise<void> {
  await mkdir(benchDir(home), { recursive: true })
  const report = { kind: 'bench', createdAt, hardware: { platform: 'linux' }, results, ratios: [], notes: [], file: null, tune: null }
  await writeFile(join(benchDir(home), name), JSON.stringify(report))
}

describe('loadReports, reports saved before the fork had its name', () => {
  it('reads the fork of a report saved under the old `engine` key as `fork`, and a new one as it is', async () => {
    await storeReport('old.json', '2026-01-01T00:00:00.000Z', [{ label: 'a', exe: 'llama-server', args: [], engine: 'ik_llama' }])
    await storeReport('new.json', '2026-02-01T00:00:00.000Z', [{ label: 'b', exe: 'llama-server', args: [], fork: 'buun' }])
    const [newer, older] = await loadReports(home)
    expect(newer?.report.results.map((r) => [r.label, r.fork, 'engine' in r])).toEqual([['b', 'buun', false]])
    expect(older?.report.results.map((r) => [r.label, r.fork, 'engine' in r])).toEqual([['a', 'ik_llama', false]])
  })
})
