import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error -- a plain .mjs script without types
import { failureLines } from '../../scripts/test-failures.mjs'

const dir = mkdtempSync(join(tmpdir(), 'llama-tray-test-failures-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A report in the shape vitest 4's JSON reporter writes (fields we do not read left out). */
function report(testResults: unknown[]): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.json`)
  writeFileSync(file, JSON.stringify({ testResults }))
  return file
}

const failingTest = (fullName: string) => ({
  fullName,
  status: 'failed',
  failureMessages: ['\u001b[31mAssertionError: expected 1 to be 2\u001b[39m\n    at app/x.test.ts:3:13'],
})

describe('npm test’s closing list of failures', () => {
  it('names each failed test with the first line of its error, colours removed', () => {
    const file = report([
      {
        name: join(process.cwd(), 'app/x.test.ts'),
        status: 'failed',
        assertionResults: [{ fullName: 'ok', status: 'passed' }, failingTest('x > fails')],
      },
    ])
    expect(failureLines(file)).toEqual(['app/x.test.ts: x > fails: AssertionError: expected 1 to be 2'])
  })

  it('names a file that failed without a failed test (it did not load), and caps the list', () => {
    const many = Array.from({ length: 25 }, (_, i) => failingTest(`t${i}`))
    const file = report([
      {
        name: join(process.cwd(), 'app/broken.test.ts'),
        status: 'failed',
        message: 'Error: Cannot find module ./gone',
        assertionResults: [],
      },
      { name: join(process.cwd(), 'app/many.test.ts'), status: 'failed', assertionResults: many },
    ])
    const lines: string[] = failureLines(file)
    expect(lines[0]).toBe('app/broken.test.ts: Error: Cannot find module ./gone')
    expect(lines).toHaveLength(21)
    expect(lines[20]).toBe('and 6 more')
  })

  it('says where to look when no test failed or no report was written', () => {
    expect(failureLines(report([{ name: 'a', status: 'passed', assertionResults: [] }]))[0]).toMatch(/outside the tests/)
    expect(failureLines(join(dir, 'none.json'))[0]).toMatch(/no report was written/)
  })
})
