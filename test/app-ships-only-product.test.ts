import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './helpers/paths'

/** Every folder under `dir`, repository-relative. */
function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [relative(REPO_ROOT, join(dir, e.name)), ...folders(join(dir, e.name))])
}

// app/ and main/ hold what ships; tests' and benchmarks' support lives in test/ and benchmarks/.
describe('app/ and main/ hold only what ships', () => {
  it('have no testing/ folder (test support lives in test/support/)', () => {
    const all = [...folders(join(REPO_ROOT, 'app')), ...folders(join(REPO_ROOT, 'main'))]
    expect(all).toContain(join('app', 'lib', 'json-store'))
    expect(all.filter((f) => /(^|[\\/])testing$/.test(f))).toEqual([])
  })
})
