import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './helpers/paths'

/** Prettier (print width 140) does not break long strings, comments or regexes: this keeps every source line at most 160 characters. */
const MAX = 160
const FOLDERS = ['app', 'main', 'renderer', 'test', 'benchmarks', 'scripts']

describe('line length', () => {
  it(`keeps every line of the tracked sources under ${FOLDERS.join(', ')} at most ${MAX} characters (test/fixtures aside)`, () => {
    const files = execFileSync('git', ['ls-files', ...FOLDERS], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.(ts|tsx|mts|mjs|css|html)$/.test(f) && !f.startsWith('test/fixtures/'))
    expect(files.length).toBeGreaterThan(100)
    const long = files.flatMap((f) =>
      readFileSync(join(REPO_ROOT, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.length > MAX ? [`${f}:${i + 1}: ${line.length}`] : [])),
    )
    expect(long).toEqual([])
  })
})
