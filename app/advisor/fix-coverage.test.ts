import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readGgufModel, type GgufModel } from '../fit/gguf-model'
import { FAILURE_FIXES, LINT_RULES_WITHOUT_FIX, LIVE_RULE_FIXES } from '../../test/support/advisor/fix-coverage'
import { FIT_RULES } from './fit-rules'
import { LIVE_RULES } from './live-rules'
import { LINT_RULES } from './rules'
import { lintEveryFixture } from '../../test/support/advisor/arg-lists'
import { fixtureEngines, seedModels, TINY, type SeedModels } from '../../test/support/advisor/fixtures'

// Every warning and failure a user can meet has a one-click fix, or says plainly why it has none (fix-coverage.ts).

let models: SeedModels
let tiny: GgufModel
let engines: Awaited<ReturnType<typeof fixtureEngines>>
beforeAll(async () => {
  engines = await fixtureEngines()
  models = await seedModels()
  tiny = await readGgufModel(TINY('tiny-target.gguf'))
})
afterAll(() => rm(models.dir, { recursive: true, force: true }))

const reasonOf = (c: { fix: string } | { none: string }): string => ('fix' in c ? c.fix : c.none)

describe('every warning and failure has a fix or a reason for none', () => {
  it('every lint rule gives a fix for the fixtures that raise it, unless it is listed with its reason', () => {
    const rules = [...LINT_RULES, ...FIT_RULES]
    const findings = lintEveryFixture(models, tiny, engines, rules)
    const fixed = new Set(findings.filter((f) => f.fix !== null).map((f) => f.rule))
    const spoke = new Set(findings.map((f) => f.rule))
    for (const rule of rules) {
      expect(spoke.has(rule.id), `${rule.id} raised nothing for the fixtures`).toBe(true)
      const why = LINT_RULES_WITHOUT_FIX[rule.id]
      if (why === undefined) expect(fixed.has(rule.id), `${rule.id} has no fix and no reason in fix-coverage.ts`).toBe(true)
      else {
        expect(fixed.has(rule.id), `${rule.id} has a fix now: take it out of LINT_RULES_WITHOUT_FIX`).toBe(false)
        expect(why.length).toBeGreaterThan(20)
      }
    }
    // No stale entries.
    expect(Object.keys(LINT_RULES_WITHOUT_FIX).filter((id) => !rules.some((r) => r.id === id))).toEqual([])
  })

  it('every live rule says where its fix comes from, or why it has none', () => {
    expect(Object.keys(LIVE_RULE_FIXES).sort()).toEqual(LIVE_RULES.map((r) => r.id).sort())
    for (const c of Object.values(LIVE_RULE_FIXES)) expect(reasonOf(c).length).toBeGreaterThan(20)
  })

  it('every failure kind says where its fix comes from, or why it has none (the type lists them all)', () => {
    for (const c of Object.values(FAILURE_FIXES)) expect(reasonOf(c).length).toBeGreaterThan(20)
    const none = Object.entries(FAILURE_FIXES).filter(([, c]) => 'none' in c)
    const liveNone = Object.entries(LIVE_RULE_FIXES).filter(([, c]) => 'none' in c)
    const lintNone = Object.keys(LINT_RULES_WITHOUT_FIX)
    // The count the issue asks for, printed for the report.
    process.stdout.write(
      `without a fix, each with its reason: ${lintNone.length} lint rule(s), ${liveNone.length} live rule(s), ${none.length} failure kind(s)\n`,
    )
  })
})
