import { rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readGgufModel, type GgufModel } from '../fit/gguf-model'
import { LINT_RULES } from './rules'
import { lintEveryFixture } from '../../test/support/advisor/arg-lists'
import { fixtureEngines, seedModels, TINY, type SeedModels } from '../../test/support/advisor/fixtures'

/** Starts with a capital letter (never a flag or a lowercase word) and ends with a full stop (maybe inside a quote or bracket). */
const SENTENCE = /^[A-Z][\s\S]*[.!?]["”')]?$/
/** A sentence's end followed by the start of another: a headline has none ("1.5 GB", "0.0.0.0," and "-fit on." at its end are fine). */
const SECOND_SENTENCE = /[.!?]["”')]?\s+["“(]?[A-Z]/

/** The longest headline: one idea that fits the popover's 360 px card and an 80-column line with its marker. */
const HEADLINE_MAX = 100

let models: SeedModels
let tiny: GgufModel
let engines: Awaited<ReturnType<typeof fixtureEngines>>
beforeAll(async () => {
  engines = await fixtureEngines()
  models = await seedModels()
  tiny = await readGgufModel(TINY('tiny-target.gguf'))
})
afterAll(() => rm(models.dir, { recursive: true, force: true }))

describe("the advisor's words", () => {
  it('every finding every rule gives for the fixtures has a one-sentence headline and a reason of whole sentences', () => {
    const found = new Map<string, string>()
    const headlines = new Map<string, string>()
    const reasons = new Map<string, string>()
    for (const f of lintEveryFixture(models, tiny, engines)) {
      found.set(f.id, f.rule)
      headlines.set(f.headline, f.rule)
      if (f.reason !== '') reasons.set(f.reason, f.rule)
    }
    // The headline is one sentence (what is wrong and what it costs); the reason, when there is one, whole sentences.
    const notOne = [...headlines].filter(([h]) => !SENTENCE.test(h) || SECOND_SENTENCE.test(h)).map(([h, rule]) => `${rule}: ${h}`)
    expect(notOne).toEqual([])
    // The headline fits the popover and a terminal line: what is wrong and what it costs; the rest is the reason.
    const long = [...headlines].filter(([h]) => h.length > HEADLINE_MAX).map(([h, rule]) => `${rule} ${h.length}: ${h}`)
    expect(long).toEqual([])
    const wrong = [...reasons].filter(([reason]) => !SENTENCE.test(reason)).map(([reason, rule]) => `${rule}: ${reason}`)
    expect(wrong).toEqual([])
    // Every rule spoke at least once, so none of them escaped the check.
    const rules = new Set(found.values())
    expect(LINT_RULES.map((r) => r.id).filter((id) => !rules.has(id))).toEqual([])
  })
})
