import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './helpers/paths'

interface CycleReport {
  readonly files: string[][]
  readonly folders: string[][]
  readonly folderGraph: Record<string, string[]>
}

// scripts/import-cycles.mjs reads every import of app/ (type-only ones too; *.test.ts files left out).
function report(): CycleReport {
  return JSON.parse(
    execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'import-cycles.mjs'), '--json', REPO_ROOT], { encoding: 'utf8' }),
  ) as CycleReport
}

describe('app/ import graph', () => {
  const r = report()

  it('has no cycle between files', () => {
    expect(r.files).toEqual([])
  })

  it('has no cycle between folders', () => {
    expect(r.folders).toEqual([])
  })

  it('sees the real graph (the count is not vacuous)', () => {
    expect(r.folderGraph.core).toEqual(expect.arrayContaining(['bench', 'profiles', 'supervisor']))
    expect(r.folderGraph.contract).toEqual([])
  })
})
