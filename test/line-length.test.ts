import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './helpers/paths'

/** Prettier (print width 140) does not break long strings, comments or regexes: this keeps every source line at most 160 characters. */
const MAX = 160
const FOLDERS = ['app', 'main', 'renderer', 'test', 'benchmarks', 'scripts']
const SOURCE = /\.(ts|tsx|mts|mjs|css|html)$/

describe('line length', () => {
  it(`keeps every line of the tracked sources under ${FOLDERS.join(', ')} and at the root at most ${MAX} characters (test/fixtures aside)`, () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\n')
    // The root's configuration files (eslint.config.mjs, the vite configs) are sources too.
    const files = tracked.filter(
      (f) => SOURCE.test(f) && !f.startsWith('test/fixtures/') && (!f.includes('/') || FOLDERS.includes(f.split('/')[0] ?? '')),
    )
    expect(files.length).toBeGreaterThan(100)
    const long = files.flatMap((f) =>
      readFileSync(join(REPO_ROOT, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.length > MAX ? [`${f}:${i + 1}: ${line.length}`] : [])),
    )
    expect(long).toEqual([])
  })
})
