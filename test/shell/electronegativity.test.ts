import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/paths'

// Static security scan of the compiled app (npm test builds out/ first). The
// scanner exits 0 even with findings, so this gates on its CSV report.
const run = promisify(execFile)
const SCANNER = join(REPO_ROOT, 'node_modules', '@doyensec', 'electronegativity', 'dist', 'index.js')
const ELECTRON_VERSION = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }
).version
const baseline = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'shell', 'electronegativity-baseline.json'), 'utf8')) as {
  accepted: { issue: string; file: string; sample: string; why: string }[]
}

interface Finding {
  readonly issue: string
  readonly severity: string
  readonly confidence: string
  readonly file: string
  readonly location: string
  readonly sample: string
}

/** RFC 4180-style CSV (quoted fields, doubled quotes), as the scanner writes it. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      row.push(field)
      field = ''
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++
      row.push(field)
      if (row.some((f) => f.trim() !== '')) rows.push(row)
      row = []
      field = ''
    } else field += ch
  }
  row.push(field)
  if (row.some((f) => f.trim() !== '')) rows.push(row)
  return rows
}

const ANSI_COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')
const squash = (s: string): string => s.replace(/\s+/g, '')
const tmp = mkdtempSync(join(tmpdir(), 'electronegativity-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('electronegativity on out/', () => {
  it('the CSV parser reads quoted fields with commas and quotes', () => {
    expect(parseCsv('a, b\n"x,1","say ""hi""",N/A\n')).toEqual([
      ['a', ' b'],
      ['x,1', 'say "hi"', 'N/A'],
    ])
  })

  it('finds no HIGH or MEDIUM issue outside the reviewed baseline, and parses every file', async () => {
    // The scan reads a private copy of the Electron bundles (main, preload, renderer): nothing else
    // in out/ (the CLI, the bench, screenshots) is scanned, and no build running meanwhile can change it.
    const copy = join(tmp, 'out')
    for (const part of ['main', 'preload', 'renderer']) {
      const from = join(REPO_ROOT, 'out', part)
      expect(existsSync(from), `out/${part} (run npm run build)`).toBe(true)
      cpSync(from, join(copy, part), { recursive: true })
    }
    const scan = async (n: number): Promise<Finding[]> => {
      const report = join(tmp, `report-${n}.csv`)
      const { stdout, stderr } = await run(
        process.execPath,
        [SCANNER, '-i', copy, '-o', report, '-r', '-e', ELECTRON_VERSION, '-v', 'false'],
        { cwd: REPO_ROOT, timeout: 110_000, maxBuffer: 16 * 1024 * 1024 },
      )
      // A file the scanner cannot parse is skipped silently (exit 0): that would hide findings.
      expect(`${stdout}\n${stderr}`.replace(ANSI_COLOURS, '')).not.toMatch(/Error parsing/)
      const [header, ...rows] = parseCsv(readFileSync(report, 'utf8'))
      expect(header?.map((h) => h.trim())).toEqual([
        'issue',
        'severity',
        'confidence',
        'filename',
        'location',
        'sample',
        'description',
        'url',
      ])
      const findings: Finding[] = rows.map(([issue = '', severity = '', confidence = '', file = '', location = '', sample = '']) => ({
        issue,
        severity,
        confidence,
        file: file.replace(/\\/g, '/'),
        location,
        sample,
      }))
      return findings.filter((f) => f.severity === 'HIGH' || f.severity === 'MEDIUM')
    }
    const matches = (b: (typeof baseline.accepted)[number], f: Finding): boolean =>
      b.issue === f.issue && b.file === f.file && squash(b.sample) === squash(f.sample)
    // The scanner is not deterministic: in about 1 clean CI run in 10 it reported nothing for a file it
    // reports on in every other run, once also on a second scan (and 1 first scan in 5 full unit runs
    // here). The gate reads the union of up to SCANS scans of the same copy: a finding outside the
    // baseline in any scan fails at once; a baseline entry counts as gone only when none of them
    // reports it. Extra scans are logged; they cost about 5 s each, and only when one missed.
    const SCANS = 5
    const key = (f: Finding): string => `${f.issue}|${f.file}|${squash(f.sample)}`
    const found = new Map<string, Finding>()
    for (let n = 1; n <= SCANS; n++) {
      const findings = await scan(n)
      expect(findings.filter((f) => !baseline.accepted.some((b) => matches(b, f)))).toEqual([])
      for (const f of findings) found.set(key(f), f)
      if (baseline.accepted.every((b) => [...found.values()].some((f) => matches(b, f)))) break
      if (n < SCANS) console.log(`[electronegativity] scan ${n} missed a baseline finding: scanning the same copy again`)
    }
    const union = [...found.values()]
    // Every baseline entry still matches something: drop entries whose reason is gone.
    expect(baseline.accepted.filter((b) => !union.some((f) => matches(b, f)))).toEqual([])
    expect(baseline.accepted.every((b) => b.why.length > 40)).toBe(true)
  }, 360_000)
})
