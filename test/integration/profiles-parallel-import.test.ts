import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertCliBuilt, runCli } from '../helpers/cli'

// Issue #26 items 2 and 7: each `profiles import` process had its own write queue, so parallel
// imports on one home overwrote each other (20 at once stored 4-5 of 20, all exiting 0).
// 20 CLI processes take about a minute a round on 2 busy cores: the suite runs 10 rounds of 2 and
// 2 rounds of 20; PARALLEL_IMPORT_ROUNDS=10 runs 10 of each (the figure in the commit).
const ROUNDS_OF_TWO = 10
const ROUNDS_OF_TWENTY = Number(process.env.PARALLEL_IMPORT_ROUNDS ?? 2)
let scratch: string

beforeAll(() => {
  assertCliBuilt()
  scratch = mkdtempSync(join(tmpdir(), 'llama-tray-parallel-import-'))
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Starts `count` imports of one command line on a fresh home at once; returns the ids stored. */
async function importAtOnce(home: string, count: number): Promise<string[]> {
  const results = await Promise.all(
    // Names differ (a name is taken once), ids collide: "same!", "same!!", … all make the id "same".
    Array.from({ length: count }, (_, i) =>
      runCli([
        '--home',
        home,
        'profiles',
        'import',
        '--json',
        '--force',
        '--name',
        `same${'!'.repeat(i + 1)}`,
        '--',
        'llama-server',
        '-m',
        'same.gguf',
        '-c',
        '4096',
      ]),
    ),
  )
  for (const r of results) expect(r.stderr).toBe('')
  expect(results.map((r) => r.code)).toEqual(Array(count).fill(0))
  // Every process printed the id it stored; they are all different and all in the file.
  const printed = results.map((r) => (JSON.parse(r.stdout) as { id: string }).id)
  expect(new Set(printed).size).toBe(count)
  const stored = (JSON.parse(readFileSync(join(home, 'profiles.json'), 'utf8')) as { profiles: Array<{ id: string }> }).profiles.map(
    (p) => p.id,
  )
  expect(stored.toSorted()).toEqual(printed.toSorted())
  return stored
}

describe('llama-tray profiles import, many processes on one home', () => {
  it(`2 at once store both (${ROUNDS_OF_TWO} rounds)`, { timeout: 600_000 }, async () => {
    for (let round = 0; round < ROUNDS_OF_TWO; round++)
      expect(await importAtOnce(join(scratch, `two-${round}`), 2), `round ${round}`).toHaveLength(2)
  })

  it(`20 at once store all 20 (${ROUNDS_OF_TWENTY} rounds)`, { timeout: 3_600_000 }, async () => {
    const storedPerRound: number[] = []
    for (let round = 0; round < ROUNDS_OF_TWENTY; round++)
      storedPerRound.push((await importAtOnce(join(scratch, `twenty-${round}`), 20)).length)
    expect(storedPerRound).toEqual(Array(ROUNDS_OF_TWENTY).fill(20))
  })
})
