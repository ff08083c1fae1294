import type { BenchFigures, BenchSpread } from '../contract/bench'
import { benchTargets } from '../bench/compare'
import { BenchCancelledError } from '../bench/bench-launch'
import { buildResult } from '../bench/result'
import { BenchSession, type BenchDeps } from '../bench/session'
import { prepareProfile, prepareVariant, type PreparedTarget } from '../bench/target'
import { detectFork } from '../profiles/fork-detect'
import { blockingProblems, checkFlags } from '../profiles/flag-check'
import { profileToLaunchSpec } from '../profiles/launch-spec'

/** What the gate reads of one engine's bench: the medians and their spread over the run's rounds. */
export interface GateFigures {
  readonly median: Pick<BenchFigures, 'tokensPerSecond' | 'promptTokensPerSecond'>
  readonly tokensPerSecondSpread: Pick<BenchSpread, 'robustCvPct'> | null
  readonly promptTokensPerSecondSpread: Pick<BenchSpread, 'robustCvPct'> | null
}

export interface GateVerdict {
  readonly adopt: boolean
  /** One sentence per reason (why it is adopted, or why not). */
  readonly reasons: readonly string[]
  readonly old: GateFigures | null
  readonly new: GateFigures | null
  /** The slowdown allowed for each figure: the run's own noise, at least MIN_TOLERANCE_PCT. */
  readonly tolerancePct: { readonly decode: number; readonly prompt: number } | null
}

/** Below this, a difference is noise whatever the spread says (3 runs make a thin spread). */
export const MIN_TOLERANCE_PCT = 3

function tolerance(a: Pick<BenchSpread, 'robustCvPct'> | null, b: Pick<BenchSpread, 'robustCvPct'> | null): number {
  return Math.max(MIN_TOLERANCE_PCT, a?.robustCvPct ?? 0, b?.robustCvPct ?? 0)
}

/**
 * Adopt the new engine only if it is not slower than the old one beyond the
 * run's noise, decode and prompt judged separately: a slowdown larger than
 * the larger robust spread of the two (at least 3 %) refuses it.
 */
export function judgeUpdate(old: GateFigures, neu: GateFigures): GateVerdict {
  const tol = {
    decode: tolerance(old.tokensPerSecondSpread, neu.tokensPerSecondSpread),
    prompt: tolerance(old.promptTokensPerSecondSpread, neu.promptTokensPerSecondSpread),
  }
  const reasons: string[] = []
  let adopt = true
  const judge = (what: string, o: number | null, n: number | null, tolPct: number): void => {
    if (o === null || n === null) {
      if (n === null && o !== null) {
        adopt = false
        reasons.push(`the new engine gave no ${what} figure (the old one: ${o.toFixed(1)} tok/s)`)
      }
      return
    }
    const changePct = ((n - o) / o) * 100
    if (changePct < -tolPct) {
      adopt = false
      reasons.push(
        `${what} is ${(-changePct).toFixed(1)} % slower on the new engine (${n.toFixed(1)} vs ${o.toFixed(1)} tok/s), more than this ` +
          `run's noise of ${tolPct.toFixed(1)} %`,
      )
    } else
      reasons.push(
        `${what} ${n.toFixed(1)} vs ${o.toFixed(1)} tok/s (${changePct >= 0 ? '+' : ''}${changePct.toFixed(1)} %, noise ` +
          `${tolPct.toFixed(1)} ` +
          `%)`,
      )
  }
  judge('generation', old.median.tokensPerSecond, neu.median.tokensPerSecond, tol.decode)
  judge('prompt processing', old.median.promptTokensPerSecond, neu.median.promptTokensPerSecond, tol.prompt)
  return { adopt, reasons, old, new: neu, tolerancePct: tol }
}

/** Benches two prepared targets alternated over rounds (the bench's own compare), as the gate reads them. */
export type PairBench = (old: PreparedTarget, neu: PreparedTarget) => Promise<readonly [GateFigures, GateFigures]>

export interface GateOptions {
  readonly runs: number
  readonly tokens: number
  /** Rounds; the order is reversed every other round so drift falls on both alike (default 2). */
  readonly rounds?: number
  /** Replaces the real bench (tests script it). */
  readonly bench?: PairBench
}

function realPairBench(deps: BenchDeps, options: GateOptions): PairBench {
  return async (old, neu) => {
    const session = new BenchSession(deps, { runs: options.runs, tokens: options.tokens, rounds: options.rounds ?? 2 })
    const [a, b] = await benchTargets(session, [old, neu])
    return [buildResult(a!), buildResult(b!)] as const
  }
}

/**
 * The safety gate of `engines update`: the profile's own bench on its current
 * binary and on `newBinary`, alternated; the verdict says whether to adopt.
 * A new engine that rejects the profile's flags or does not load is refused.
 */
export async function runSafetyGate(deps: BenchDeps, profile: string, newBinary: string, options: GateOptions): Promise<GateVerdict> {
  const old = await prepareProfile(deps.home, profile)
  const binaryInfo = await detectFork(deps.home, newBinary)
  const newProfile = { ...old.profile, binary: newBinary }
  const blocking = blockingProblems(checkFlags(newProfile, binaryInfo))
  if (blocking.length > 0)
    return {
      adopt: false,
      reasons: [`the new engine rejects the profile's flags ${blocking.map((p) => p.flag).join(', ')}`],
      old: null,
      new: null,
      tolerancePct: null,
    }
  const variant = prepareVariant(old, newProfile, `${old.profile.name} (new engine)`)
  const neu: PreparedTarget = {
    ...variant,
    binaryInfo,
    spec: profileToLaunchSpec(newProfile, binaryInfo),
    target: { ...variant.target, exe: newBinary, fork: binaryInfo.fork },
  }
  let figures: readonly [GateFigures, GateFigures]
  try {
    figures = await (options.bench ?? realPairBench(deps, options))(old, neu)
  } catch (err) {
    if (err instanceof BenchCancelledError) throw err
    return { adopt: false, reasons: [`the bench did not finish: ${(err as Error).message}`], old: null, new: null, tolerancePct: null }
  }
  return judgeUpdate(figures[0], figures[1])
}
