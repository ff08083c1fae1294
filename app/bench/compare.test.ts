import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BenchProgress, BenchReport, BenchRun } from '../contract/bench'
import { median } from '../metrics/median'
import { TimingLogParser, type RequestRecord } from '../metrics/timing-log-parser'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { compareProfiles } from './compare'
import { formatReportCsv, formatReportMarkdown, formatReportText } from './format'
import { addProfile, llamaServerChildren, makeCore, SMALL, tinyDraft, tinyTarget, type TestCore } from '../../test/support/core/tiny-core'

const RUNS = 2
const TOKENS = 128
let t: TestCore
let report: BenchReport
const progress: BenchProgress[] = []

/** The server's own log: every request's timing record, in order. */
function loggedRequests(home: string): RequestRecord[] {
  const parser = new TimingLogParser()
  const out: RequestRecord[] = []
  const text = readFileSync(path.join(home, 'logs', 'llama-server.log'), 'utf8')
  for (const line of text.split('\n')) for (const e of parser.feed(line)) if (e.kind === 'request') out.push(e.record)
  for (const e of parser.flush()) if (e.kind === 'request') out.push(e.record)
  return out
}

const within = (a: number, b: number, rel: number): boolean => Math.abs(a - b) <= rel * Math.abs(b)

beforeAll(async () => {
  const bin = llamaServerBin()
  t = await makeCore()
  const plain = await addProfile(t.home, 'tiny', [bin, '-m', tinyTarget, ...SMALL])
  const draft = await addProfile(t.home, 'tiny + draft', [bin, '-m', tinyTarget, '-md', tinyDraft, '--spec-type', 'draft-simple', ...SMALL])
  report = await compareProfiles({ core: t.core, home: t.home, onProgress: (p) => progress.push(p) }, [plain, draft], {
    runs: RUNS,
    tokens: TOKENS,
    rounds: 2,
  })
}, 600_000)

afterAll(async () => {
  await t?.dispose()
})

describe('compare on the real tiny server (target with and without the draft)', () => {
  it('runs every prompt RUNS times per round, two rounds, in alternating order', () => {
    expect(report.results.map((r) => r.label)).toEqual(['tiny', 'tiny + draft'])
    for (const r of report.results) {
      expect(r.runs).toHaveLength(2 * RUNS * 2)
      expect(r.runs.every((run) => run.generatedTokens === TOKENS)).toBe(true)
      expect(r.runs.every((run) => run.promptTokens > 50)).toBe(true) // the prompt is processed every run (no cache)
    }
    // Round 1: tiny then draft; round 2: draft then tiny.
    const starts = progress.filter((p) => p.phase === 'starting').map((p) => p.message.split(':')[0])
    expect(starts).toEqual(['tiny · round 1/2', 'tiny + draft · round 1/2', 'tiny + draft · round 2/2', 'tiny · round 2/2'])
    expect(progress.some((p) => p.remainingMs !== null && p.step <= p.totalSteps)).toBe(true)
  })

  it('gives generation figures equal to the server’s own timings, in the table and in the log (within 1%)', () => {
    const all: BenchRun[] = report.results.flatMap((r) => r.runs).sort((a, b) => a.startedAt - b.startedAt)
    const logged = loggedRequests(t.home).filter((r) => r.predictedTokens === TOKENS)
    expect(logged).toHaveLength(all.length)
    all.forEach((run, i) => {
      const rec = logged[i] as RequestRecord
      expect(within(run.tokensPerSecond, rec.predictedTokensPerSecond, 0.01)).toBe(true)
      expect(within(run.promptTokensPerSecond, rec.promptTokensPerSecond, 0.01)).toBe(true)
      expect(run.draftTokens).toBe(rec.draftTokens)
    })
    // The table's medians are the medians of those per-run records.
    for (const r of report.results) {
      for (const p of r.prompts) {
        const raw = median(
          r.runs.filter((x) => x.prompt === p.prompt && (r.medianOver === 'all' || !x.disturbed)).map((x) => x.tokensPerSecond),
        ) as number
        expect(within(p.median.tokensPerSecond as number, raw, 0.01)).toBe(true)
      }
    }
    const text = formatReportText(report)
    const first = report.results[0]?.prompts[0]?.median.tokensPerSecond as number
    expect(text).toContain(first.toFixed(1))
  })

  it('reports draft acceptance for the draft profile only, and ratios against the first profile', () => {
    const [plain, draft] = report.results
    expect(plain?.median.draftAcceptance).toBeNull()
    expect(draft?.median.draftAcceptance).toBeGreaterThan(0)
    expect(draft?.median.draftAcceptance).toBeLessThanOrEqual(1)
    expect(report.ratios[0]?.tokensPerSecond).toBe(1)
    expect(report.ratios[1]?.tokensPerSecond).toBeCloseTo(
      (draft?.median.tokensPerSecond as number) / (plain?.median.tokensPerSecond as number),
      6,
    )
  })

  it('repeated rounds of the same profile agree (a sanity bound; the noise itself is reported)', () => {
    const lines: string[] = []
    for (const r of report.results) {
      for (const p of r.prompts) {
        const spread = p.tokensPerSecondSpread
        const [a, b] = p.roundMedians as [number, number]
        const m = p.median.tokensPerSecond as number
        // A sanity bound, not the noise goal: 4 robust standard deviations of single runs (1.4826 × MAD),
        // never under 50% of the median. On an idle 2-core box round medians of the same profile differed
        // by 1.4–14.2%; a busy one stretches that. A broken bench (a cold first round, results of one
        // profile filed under another) shows up as a gap of several times, which this still catches.
        const noise = Math.max(4 * 1.4826 * (spread?.mad ?? 0), 0.5 * m)
        lines.push(
          `${r.label} ${p.prompt}: median ${m.toFixed(1)} tok/s, rounds ${a.toFixed(1)} / ${b.toFixed(1)} (Δ ` +
            `${(((b - a) / m) * 100).toFixed(1)}%), ` +
            `runs ${spread?.min.toFixed(1)}–${spread?.max.toFixed(1)}, robust CV ${spread?.robustCvPct.toFixed(1)}%, allowed Δ ` +
            `${((noise / m) * 100).toFixed(1)}%`,
        )
        expect(Math.abs(a - b)).toBeLessThanOrEqual(noise)
      }
    }
    console.log(lines.join('\n'))
  })

  it('stores the report with the hardware and exact arguments, and exports Markdown and CSV', () => {
    expect(report.file).not.toBeNull()
    const stored = JSON.parse(readFileSync(report.file as string, 'utf8')) as BenchReport
    expect(stored.hardware.cpuCores).toBeGreaterThan(0)
    expect(stored.results[1]?.args).toEqual(expect.arrayContaining(['-md', tinyDraft, '--spec-type', 'draft-simple']))
    const md = formatReportMarkdown(report)
    expect(md.split('\n').filter((l) => l.startsWith('| tiny'))).toHaveLength(2)
    expect(md).toMatch(/×[0-9.]+/)
    const csv = formatReportCsv(report).trim().split('\n')
    expect(csv).toHaveLength(1 + report.results.reduce((n, r) => n + r.runs.length, 0))
    console.log(formatReportText(report))
  })

  it('leaves the server as it was (stopped) and no process behind', () => {
    expect(t.core.server.getStatus().state).toBe('stopped')
    expect(llamaServerChildren()).toEqual([])
    expect(existsSync(path.join(t.home, 'bench'))).toBe(true)
  })
})
