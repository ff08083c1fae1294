import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../contract/settings'
import { failureSentence } from '../contract/wording'
import { readGgufModel, type GgufModel } from '../fit/gguf-model'
import { diagnoseExit } from '../supervisor/diagnose'
import { hfFailure } from '../supervisor/hf-download-hint'
import { preflight } from '../supervisor/preflight'
import { FAILURE_FIXES, LINT_RULES_WITHOUT_FIX, LIVE_RULE_FIXES } from '../../test/support/advisor/fix-coverage'
import { lintEveryFixture } from '../../test/support/advisor/arg-lists'
import { fixtureEngines, seedModels, TINY, type SeedModels } from '../../test/support/advisor/fixtures'
import { device, sample, type SampleSpec } from '../../test/support/advisor/replay'
import { everyDiagnosis } from '../../test/support/supervisor/every-diagnosis'
import { FIT_RULES } from './fit-rules'
import { DEFAULT_LIVE_THRESHOLDS, LIVE_RULES, type LiveContext } from './live-rules'

// Issue #40's measurement: the longest headline and the longest sentence the app says, over every lint and fit rule (the
// fixtures that raise them), every live rule (raised with the longest figures the rule can name) and every failure kind (every
// diagnosis and the pre-start checks); and how many rules and failure kinds have no fix, each with its reason (fix-coverage.ts).

let models: SeedModels
let tiny: GgufModel
let engines: Awaited<ReturnType<typeof fixtureEngines>>
beforeAll(async () => {
  engines = await fixtureEngines()
  models = await seedModels()
  tiny = await readGgufModel(TINY('tiny-target.gguf'))
})
afterAll(() => rm(models.dir, { recursive: true, force: true }))

/** Where a text splits into sentences: an end mark, spaces, and a capital (quotes and brackets allowed around them). */
const BETWEEN_SENTENCES = /(?<=[.!?]["”')]?)\s+(?=["“(]?[A-Z])/

/** The headline's goal (one idea that fits the popover's 360 px card). */
const HEADLINE_MAX = 100
/** A folder path in a sentence: two or more segments after a slash or a drive letter. */
const PATH = /(?:^|[\s(:'"])(?:[A-Za-z]:\\|\/)[^\s/\\]+[/\\][^\s]+/

interface Said {
  readonly from: string
  readonly headline: string
  readonly reason: string
}

/** Each live rule raised, with figures at their longest (five heavy apps, throttling, a crash loop…). */
function liveWords(): Said[] {
  const apps = ['Discord', 'chrome', 'Microsoft Teams', 'OneDrive', 'steamwebhelper'].map((name) => ({ name, cpuPct: 12.4, pids: [1] }))
  const specs: Record<string, Partial<SampleSpec>> = {
    'live.vram-low': { freeMiB: 0 },
    'live.heavy-apps': { heavyApps: apps, active: true, tokensPerSecond: 10 },
    'live.speed-drop': { active: true, tokensPerSecond: 3.1, heavyApps: apps, freeMiB: 0, throttleReasons: ['hw_thermal_slowdown'] },
    'live.prompt-slow': { lastPrompt: { tokens: 65536, tokensPerSecond: 12.3 }, longPromptMedian: { tokensPerSecond: 456.7, count: 9 } },
    'live.gpu-throttle': { throttleReasons: ['hw_thermal_slowdown', 'hw_power_brake_slowdown', 'sw_thermal_slowdown', 'sw_power_cap'] },
    'live.gpu-hot': { temperatureC: 101 },
    'live.server-restarting': { state: 'backoff', restarts: 9 },
    'live.sysmem-fallback': { freeMiB: 0, active: true, tokensPerSecond: 3.1 },
  }
  const out: Said[] = []
  for (const rule of LIVE_RULES) {
    const failures = rule.id === 'live.server-failed' ? everyDiagnosis() : [null]
    for (const d of failures) {
      const spec: SampleSpec = {
        time: 60_000,
        ...(specs[rule.id] ?? {}),
        ...(d
          ? { state: 'crashloop', restarts: 4, lastExit: { code: 1, signal: null, kind: d.kind, reason: d.reason, hint: d.hint } }
          : {}),
      } as SampleSpec
      const snap = sample(spec)
      const ctx: LiveContext = {
        snapshot: {
          ...snap,
          ...(rule.id === 'live.gpu-throttle'
            ? { gpu: { ...snap.gpu!, devices: [device({ ...snap.gpu!.devices[0]!, powerW: 140.4, powerLimitW: 140 })] } }
            : {}),
        },
        settings: DEFAULT_SETTINGS,
        now: 60_000,
        platform: 'win32',
        thresholds: DEFAULT_LIVE_THRESHOLDS,
        baselineTokensPerSecond: 24.6,
        lastGeneratingAt: 59_000,
        vramSuggestion: () => ({
          change: '--n-cpu-moe 40',
          savedMiB: 1536,
          fix: {
            label: 'Move more experts to the CPU (--n-cpu-moe 40)',
            removeArgs: [],
            addArgs: [],
            cost: 'about 12 tok/s slower (estimate)',
          },
        }),
        sharedGpu: { baselineMiB: 100, currentMiB: 2100 },
        fixForFailure: () => null,
      }
      const e = rule.evaluate(ctx, false)
      expect(e.active, `${rule.id} was not raised`).toBe(true)
      if (e.words) out.push({ from: rule.id, headline: e.words.headline, reason: e.words.reason })
    }
  }
  return out
}

/** A failure's sentences as the header says them: the first is its headline (the cause), the rest its hint. */
function asFailure(kind: string, text: string): Said {
  const [headline, ...rest] = text.split(BETWEEN_SENTENCES)
  return { from: kind, headline: headline ?? '', reason: rest.join(' ') }
}

/** The failures found before a spawn (a binary or a file that is not there) and an -hf launch's, as the header says them. */
async function preflightWords(): Promise<Said[]> {
  const gone = join(models.dir, 'nowhere')
  const inputs = [
    { exe: join(gone, 'llama-server'), args: [] },
    { exe: process.execPath, args: ['-m', join(gone, 'Qwen3.6-35B-A3B-UD-Q4_K_M.gguf')] },
    { exe: process.execPath, args: ['-m', TINY('tiny-target.gguf'), '-md', join(gone, 'Qwen3.5-0.8B-Q8_0.gguf')] },
    { exe: process.execPath, args: ['-m', process.execPath] },
  ]
  const out: Said[] = []
  for (const input of inputs) {
    const r = await preflight(input)
    if (!r.ok) out.push(asFailure(r.failure.kind, failureSentence(r.failure.reason, r.failure.hint)))
  }
  // An -hf launch that fetched nothing names the repo and quant it asked for (the longest of the seed profiles').
  const hf = await hfFailure(diagnoseExit(1, null, ["failed to load model ''"]), ['-hf', 'unsloth/Qwen3.6-35B-A3B-GGUF:UD-Q4_K_XL'], {
    LLAMA_CACHE: gone,
  })
  out.push(asFailure(hf.kind, failureSentence(hf.reason, hf.hint)))
  return out
}

describe('the longest words the app says (measured for issue #40)', () => {
  it('walks every rule and failure kind, and reports the longest headline, the longest sentence and the fixes missing', async () => {
    const said: Said[] = [
      ...lintEveryFixture(models, tiny, engines).map((f) => ({ from: f.rule, headline: f.headline, reason: f.reason })),
      ...lintEveryFixture(models, tiny, engines, FIT_RULES).map((f) => ({ from: f.rule, headline: f.headline, reason: f.reason })),
      ...liveWords(),
      ...everyDiagnosis().map((d) => asFailure(d.kind, failureSentence(d.reason, d.hint))),
      ...(await preflightWords()),
    ]
    const longest = <T>(items: readonly T[], length: (t: T) => number): T => items.reduce((a, b) => (length(b) > length(a) ? b : a))
    const headline = longest(said, (s) => s.headline.length)
    const sentences = said.flatMap((s) =>
      [s.headline, s.reason].flatMap((t) => t.split(BETWEEN_SENTENCES)).map((text) => ({ from: s.from, text })),
    )
    const sentence = longest(sentences, (s) => s.text.length)
    const sources = new Set(said.map((s) => s.from))
    const none = [
      ...Object.entries(LINT_RULES_WITHOUT_FIX),
      ...Object.entries(LIVE_RULE_FIXES).flatMap(([id, c]) => ('none' in c ? [[id, c.none]] : [])),
      ...Object.entries(FAILURE_FIXES).flatMap(([id, c]) => ('none' in c ? [[id, c.none]] : [])),
    ]
    process.stdout.write(
      [
        `${said.length} things said, from ${sources.size} rules and failure kinds`,
        `longest headline (${headline.headline.length} chars, ${headline.from}): ${headline.headline}`,
        ...(['lint.', 'live.', ''] as const).map((prefix) => {
          const group = said.filter((s) => (prefix === '' ? !/^(lint|live)\./.test(s.from) : s.from.startsWith(prefix)))
          const top = longest(group, (s) => s.headline.length)
          return `  longest ${prefix === '' ? 'failure' : prefix.slice(0, -1)} headline: ${top.headline.length} chars (${top.from})`
        }),
        `longest sentence (${sentence.text.length} chars, ${sentence.from}): ${sentence.text}`,
        `headlines over ${HEADLINE_MAX} chars: ${[...new Set(said.filter((s) => s.headline.length > HEADLINE_MAX).map((s) => s.from))].join(', ') || 'none'}`,
        `headlines with a path: ${[...new Set(said.filter((s) => PATH.test(s.headline)).map((s) => s.from))].join(', ') || 'none'}`,
        `without a fix: ${none.length}`,
        ...none.map(([id, why]) => `  ${id}: ${why}`),
        '',
      ].join('\n'),
    )
    // One idea that fits the popover's card: every headline of every kind, at its longest figures, within the goal.
    expect(said.filter((s) => s.headline.length > HEADLINE_MAX).map((s) => `${s.from} ${s.headline.length}: ${s.headline}`)).toEqual([])
    // Names of files, never their paths, in a headline (paths are in the details, --verbose).
    expect(said.filter((s) => PATH.test(s.headline)).map((s) => `${s.from}: ${s.headline}`)).toEqual([])
    // Every live rule and the failure kinds the diagnoses name were walked.
    for (const rule of LIVE_RULES) expect(sources.has(rule.id), rule.id).toBe(true)
    expect(sentence.text.length).toBeGreaterThanOrEqual(headline.headline.split(BETWEEN_SENTENCES)[0]!.length)
  })
})
