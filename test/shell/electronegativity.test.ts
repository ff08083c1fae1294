import { execFile } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../helpers/paths'

// Static security scan of the compiled app (npm test builds out/ first), through the scanner's own
// run() in a child process (electronegativity-scan.mjs: why not its CLI is said there).
const run = promisify(execFile)
const SCAN = join(REPO_ROOT, 'test', 'shell', 'electronegativity-scan.mjs')
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

interface ScanError {
  readonly file: string
  readonly message: string
  /** The scanner parsed the file despite it (a warning); a file it could not parse has false, and was skipped. */
  readonly tolerable: boolean
}

const squash = (s: string): string => s.replace(/\s+/g, '')
const tmp = mkdtempSync(join(tmpdir(), 'electronegativity-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

describe('electronegativity on out/', () => {
  it('finds no HIGH or MEDIUM issue outside the reviewed baseline, and parses every file', async () => {
    // The scan reads a private copy of the Electron bundles (main, preload, renderer): nothing else
    // in out/ (the CLI, the bench, screenshots) is scanned, and no build running meanwhile can change it.
    const copy = join(tmp, 'out')
    for (const part of ['main', 'preload', 'renderer']) {
      const from = join(REPO_ROOT, 'out', part)
      expect(existsSync(from), `out/${part} (run npm run build)`).toBe(true)
      cpSync(from, join(copy, part), { recursive: true })
    }
    const report = join(tmp, 'report.json')
    await run(process.execPath, [SCAN, copy, ELECTRON_VERSION, report], { cwd: REPO_ROOT, timeout: 110_000, maxBuffer: 16 * 1024 * 1024 })
    const { issues, errors } = JSON.parse(readFileSync(report, 'utf8')) as { issues: Finding[]; errors: ScanError[] }
    // A file the scanner cannot parse is skipped silently: that would hide findings.
    expect(errors.filter((e) => !e.tolerable)).toEqual([])
    const findings = issues.filter((f) => f.severity === 'HIGH' || f.severity === 'MEDIUM')
    const matches = (b: (typeof baseline.accepted)[number], f: Finding): boolean =>
      b.issue === f.issue && b.file === f.file && squash(b.sample) === squash(f.sample)
    expect(findings.filter((f) => !baseline.accepted.some((b) => matches(b, f)))).toEqual([])
    // Every baseline entry still matches something: drop entries whose reason is gone.
    expect(baseline.accepted.filter((b) => !findings.some((f) => matches(b, f)))).toEqual([])
    expect(baseline.accepted.every((b) => b.why.length > 40)).toBe(true)
  }, 360_000)
})
