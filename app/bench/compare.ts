import type { BenchKind, BenchReport, BenchRun } from '../contract/bench'
import { hardwareSnapshot } from './hardware'
import { findPrevious, loadReports, saveReport } from './report-store'
import { buildResult, ratiosAgainstFirst, type ResultParts } from './result'
import { regressionNotes } from './since-previous'
import { captureServerState, restoreServerState, throwIfCancelled } from './bench-launch'
import { BenchSession, type BenchDeps, type BenchOptions } from './session'
import { minOrNull, maxOrNull } from './stats'
import { prepareProfile, type PreparedTarget } from './target'

/** Finishes a report: the hardware, earlier results of the same launches, ratios; stores it. */
export async function finishReport(
  session: BenchSession,
  kind: BenchKind,
  parts: readonly ResultParts[],
  notes: string[],
  tune: BenchReport['tune'] = null,
): Promise<BenchReport> {
  const { home, core } = session.deps
  const hardware = hardwareSnapshot(core.snapshot().gpu)
  // A damaged earlier report is set aside; the user reads why among the notes.
  const stored = await loadReports(home, (notice) => notes.push(notice))
  const results = parts.map((p) => buildResult({ ...p, previous: p.runs.length > 0 ? findPrevious(stored, p.target, hardware) : null }))
  notes.push(...regressionNotes(results))
  const disturbed = results.reduce((n, r) => n + r.disturbedRuns, 0)
  if (disturbed > 0)
    notes.push(
      `${disturbed} run(s) were disturbed (a busy heavy app, GPU throttling or heat): medians use the undisturbed runs where there are any`,
    )
  if (hardware.gpus.length === 0) notes.push('no GPU data: VRAM figures are empty')
  const report: BenchReport = {
    kind,
    createdAt: new Date().toISOString(),
    hardware,
    config: session.config,
    results,
    ratios: ratiosAgainstFirst(results),
    file: null,
    notes,
    tune,
  }
  try {
    return { ...report, file: await saveReport(home, report) }
  } catch (err) {
    return { ...report, notes: [...notes, `the result could not be stored: ${(err as Error).message}`] }
  }
}

/**
 * Runs the targets one after another, `rounds` times, reversing the order each
 * round so slow drift (heat, background load) falls on every target alike.
 * The server is put back as it was at the end, also after an error or a cancel.
 */
export async function benchTargets(session: BenchSession, targets: readonly PreparedTarget[]): Promise<ResultParts[]> {
  const core = session.core
  const before = captureServerState(core)
  const rounds = session.config.rounds
  for (let i = 0; i < rounds * targets.length; i++) session.planTarget()
  const collected = targets.map(() => ({
    runs: [] as BenchRun[],
    loadMs: null as number | null,
    minFree: [] as (number | null)[],
    peak: [] as (number | null)[],
  }))
  try {
    for (let round = 0; round < rounds; round++) {
      const order = targets.map((_, i) => i)
      if (round % 2 === 1) order.reverse()
      for (const i of order) {
        throwIfCancelled(session.signal)
        const t = targets[i] as PreparedTarget
        const what = `${t.target.label}${rounds > 1 ? ` · round ${round + 1}/${rounds}` : ''}`
        const s = await session.benchTarget(t, round, what)
        const c = collected[i] as (typeof collected)[number]
        c.runs.push(...s.runs)
        c.loadMs ??= s.loadMs
        c.minFree.push(s.minFreeVramMiB)
        c.peak.push(s.peakVramUsedMiB)
      }
    }
  } finally {
    session.progress.report('restoring', 'restoring the server as it was', before.profileId)
    await restoreServerState(core, before)
  }
  throwIfCancelled(session.signal)
  return targets.map((t, i) => {
    const c = collected[i] as (typeof collected)[number]
    return { target: t.target, runs: c.runs, loadMs: c.loadMs, minFreeVramMiB: minOrNull(c.minFree), peakVramUsedMiB: maxOrNull(c.peak) }
  })
}

/** `compare A B …`: each profile in turn, rounds alternating the order; ratios against the first. */
export async function compareProfiles(deps: BenchDeps, profiles: readonly string[], options: BenchOptions): Promise<BenchReport> {
  if (profiles.length === 0) throw new RangeError('compare needs at least one profile')
  const session = new BenchSession(deps, { rounds: 2, ...options })
  const targets: PreparedTarget[] = []
  for (const p of profiles) targets.push(await prepareProfile(deps.home, p))
  const parts = await benchTargets(session, targets)
  session.progress.report('done', 'done', null)
  return finishReport(session, 'compare', parts, [])
}

/** `bench P`: one profile (its server reused when it already runs), one round by default. */
export async function benchProfile(deps: BenchDeps, profile: string, options: BenchOptions): Promise<BenchReport> {
  const session = new BenchSession(deps, { rounds: 1, ...options })
  const target = await prepareProfile(deps.home, profile)
  const parts = await benchTargets(session, [target])
  session.progress.report('done', 'done', null)
  return finishReport(session, 'bench', parts, [])
}
