// What `npm test` prints last when a vitest step fails: the failed tests by name with the first line of
// each error, so the end of a long log (all a CI page may keep) says what broke. Each vitest step also
// writes vitest's JSON report, which this reads.
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'

const MAX_LISTED = 20

/** vitest's arguments for its usual output plus a JSON report at `file` (removed first: no stale report is read). */
export function withJsonReport(file) {
  rmSync(file, { force: true })
  mkdirSync(join(file, '..'), { recursive: true })
  return ['--reporter=default', '--reporter=json', `--outputFile.json=${file}`]
}

/** Lines naming the failed tests (and files that failed to run) in the JSON report at `file`. */
export function failureLines(file) {
  let report
  try {
    report = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return ['no report was written: the failure is in vitest’s own output above (a crash or an unhandled error)']
  }
  const lines = []
  for (const suite of report.testResults ?? []) {
    const name = relative(process.cwd(), suite.name)
    const failed = (suite.assertionResults ?? []).filter((t) => t.status === 'failed')
    for (const t of failed) lines.push(`${name}: ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`)
    if (suite.status === 'failed' && failed.length === 0) lines.push(`${name}: ${firstLine(suite.message)}`)
  }
  if (lines.length === 0) return ['every test passed: vitest failed on an error outside the tests (see "Unhandled" above)']
  const more = lines.length - MAX_LISTED
  return more > 0 ? [...lines.slice(0, MAX_LISTED), `and ${more} more`] : lines
}

function firstLine(text) {
  // eslint-disable-next-line no-control-regex -- vitest's messages carry terminal colours
  const plain = String(text ?? '(no message)').replace(/\u001b\[[0-9;]*m/g, '')
  return plain.split('\n').find((l) => l.trim() !== '') ?? '(no message)'
}
