import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LIVE_RULES } from '../app/advisor/live-rules'
import { LINT_RULES } from '../app/advisor/rules'
import { FLAGS } from '../app/contract/flag-registry'
import { buildRenderer } from './e2e/build-renderer'
import { runCli } from './helpers/cli'
import { REPO_ROOT } from './helpers/paths'
import { stringLiterals } from './helpers/string-literals'

// Users never heard of our "seeds" (the field reports our advice was drawn from):
// what they read says what was measured and on what hardware.
const SEED = /\bseeds?\b/i

/** Production files of app/ whose strings never reach a user (calibration case names, module paths, a test server's argv). */
const NOT_USER_FACING = new Set(['app/profiles/templates.ts'])

/** llama-server's own --seed flag (its name and spellings in the flag registry) is the sampler's RNG seed, not our wording. */
const FLAG_WORDS = new Set(FLAGS.flatMap((f) => [f.name, ...f.spellings]))

const offending = (strings: readonly string[]): string[] => strings.filter((s) => SEED.test(s) && !FLAG_WORDS.has(s))

describe('no user-facing text mentions seeds', () => {
  let rendererDir: string
  beforeAll(async () => {
    // The production build: the bundle the app ships (React's development build has its own messages).
    rendererDir = await buildRenderer(mkdtempSync(join(tmpdir(), 'llama-tray-seed-wording-')), { production: true })
  }, 300_000)
  afterAll(() => rendererDir && rmSync(rendererDir, { recursive: true, force: true }))

  it('the built renderer bundle has no string that says seed', () => {
    const assets = join(rendererDir, 'assets')
    const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'))
    expect(scripts.length).toBeGreaterThan(0)
    const found = scripts.flatMap((f) => offending(stringLiterals(f, readFileSync(join(assets, f), 'utf8'))))
    const html = readFileSync(join(rendererDir, 'index.html'), 'utf8')
    expect(found).toEqual([])
    expect(SEED.test(html) ? [html] : []).toEqual([])
  })

  it('llama-tray --help does not say seed', async () => {
    const help = await runCli(['--help'])
    expect(help.code).toBe(0)
    expect(help.stdout).toMatch(/Commands:/)
    expect(help.stdout.split('\n').filter((l) => SEED.test(l))).toEqual([])
  })

  it('the advisor rules (lint and live) do not say seed in their summaries or messages', () => {
    const summaries = [...LINT_RULES, ...LIVE_RULES].map((r) => `${r.id}: ${r.summary}`)
    expect(summaries.length).toBeGreaterThan(10)
    expect(offending(summaries)).toEqual([])
  })

  it('no string in app/ production code says seed (rule messages, hints, CLI texts)', () => {
    const files = execFileSync('git', ['ls-files', 'app/**/*.ts'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && !f.endsWith('.test.ts') && !NOT_USER_FACING.has(f))
    expect(files).toContain('app/advisor/rules.ts')
    const found = files.flatMap((f) => offending(stringLiterals(f, readFileSync(join(REPO_ROOT, f), 'utf8'))).map((s) => `${f}: ${s}`))
    expect(found).toEqual([])
  })
})
