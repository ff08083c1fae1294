import type { BenchReport, TuneCandidate, TuneSummary } from '../contract/bench'
import { buildFitReport, DEFAULT_HEADROOM_MIB } from '../fit/fit-report'
import { FitError } from '../fit/fit-error'
import { expertLayers, readGgufModel } from '../fit/gguf-model'
import { parseLlamaArgs } from '../fit/llama-args'
import { GpuRuntimeStore } from '../fit/runtime-store'
import { makeProfileId } from '../profiles/profile-id'
import type { Profile } from '../profiles/schema'
import { ProfileStore } from '../profiles/store'
import { availableVramMiB } from '../telemetry/gpu/free-vram'
import type { TelemetrySource } from '../telemetry/telemetry-service'
import { finishReport } from './compare'
import type { ResultParts } from './result'
import { BenchStartError, captureServerState, restoreServerState, stopServer, throwIfCancelled } from './bench-launch'
import { BenchSession, type BenchDeps, type BenchOptions } from './session'
import { median } from '../metrics/median'
import { medianRuns } from './stats'
import { prepareProfile, prepareVariant, type PreparedTarget } from './target'
import { hasDraft, withNCpuMoe, withoutDraft } from './variants'
import { problem, type Problem } from '../contract/problem'

export class TuneError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TuneError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('bench', this.message)
  }
}

export interface TuneOptions extends BenchOptions {
  /** Free VRAM to keep (default: the settings' vramHeadroomMiB). */
  readonly headroomMiB?: number
  /** Settings tried on each side of the fit's suggestion (default 2). */
  readonly radius?: number
  /** When every setting tried leaves too little VRAM, how many more experts-on-CPU steps to try (default 8). */
  readonly maxExtraSteps?: number
  /** Save the fastest setting as a new profile with this name. */
  readonly saveAs?: string | null
}

export interface TuneDeps extends BenchDeps {
  /** The core's telemetry: read with the server stopped for the free VRAM the fit starts from. */
  readonly telemetry?: TelemetrySource | null
}

/** Free VRAM of the first GPU now (the server is stopped) and its name, from a fresh telemetry reading; null without GPU data. */
async function idleFreeVram(
  telemetry: TelemetrySource | null | undefined,
  session: BenchSession,
): Promise<{ mib: number; gpuName: string | null } | null> {
  if (!telemetry) return null
  const wasRunning = telemetry.running
  const after = Date.now()
  await telemetry.start()
  try {
    const deadline = Date.now() + 5000
    while (Date.now() < deadline) {
      throwIfCancelled(session.signal)
      const gpu = telemetry.latest().gpu
      if (gpu && !gpu.available && gpu.backend === null) return null
      const device = gpu?.devices[0]
      if (gpu?.available && device && (gpu.sampledAt ?? 0) >= after) {
        const mib = availableVramMiB(device)
        return mib === null ? null : { mib, gpuName: device.name }
      }
      await new Promise((r) => setTimeout(r, 50))
    }
    return null
  } finally {
    // Leave the sampling to the core's own cadence (it starts it again with the next server).
    if (!wasRunning && session.core.server.getStatus().state === 'stopped') await telemetry.stop()
  }
}

/** The settings to try: the fit's suggestion ± radius and the profile's own, within 0…max. */
export function sweepSettings(center: number, radius: number, max: number, current: number | null): number[] {
  const set = new Set<number>()
  for (let n = center - radius; n <= center + radius; n++) if (n >= 0 && n <= max) set.add(n)
  if (current !== null && current >= 0 && current <= max) set.add(current)
  return [...set].sort((a, b) => a - b)
}

async function readModels(args: readonly string[]): Promise<{
  launch: ReturnType<typeof parseLlamaArgs>
  maxNCpuMoe: number
  fit: (free: number, headroom: number, runtimeMiB: number | null) => { nCpuMoe: number; runtimeMiB: number }
}> {
  try {
    const launch = parseLlamaArgs(args)
    if (!launch.model) throw new TuneError('tune needs a profile with a local model file (-m)')
    const model = await readGgufModel(launch.model)
    const draft = launch.settings.draft ? await readGgufModel(launch.settings.draft.path) : null
    const layers = expertLayers(model)
    return {
      launch,
      maxNCpuMoe: layers.length ? Math.max(...layers) + 1 : 0,
      fit: (free, headroom, runtimeMiB) => {
        const r = buildFitReport({
          model,
          draft,
          settings: launch.settings,
          freeVramMiB: free,
          headroomMiB: headroom,
          vramSource: 'telemetry',
          ...(runtimeMiB === null ? {} : { runtimeMiB, runtimeSource: 'measured' as const }),
        })
        return { nCpuMoe: r.nCpuMoe, runtimeMiB: r.gpuRuntimeMiB }
      },
    }
  } catch (err) {
    if (err instanceof FitError) throw new TuneError(err.message)
    throw err
  }
}

/** Saves a tune's winner as a new profile (a copy of the base with the setting); returns its id. */
export async function saveTunedProfile(
  home: string,
  base: Profile,
  nCpuMoe: number,
  draft: boolean,
  name: string,
  note: string,
): Promise<string> {
  const store = await ProfileStore.open(home)
  if (store.find(name)) throw new TuneError(`a profile named "${name}" already exists: choose another --save name`)
  const now = new Date().toISOString()
  const tuned = withNCpuMoe(draft ? base : withoutDraft(base), nCpuMoe)
  const id = makeProfileId(
    name,
    store.file.profiles.map((p) => p.id),
  )
  await store.upsert({ ...tuned, id, name, notes: [base.notes, note].filter(Boolean).join('\n'), createdAt: now, updatedAt: now })
  return id
}

/**
 * `tune P`: sweeps --n-cpu-moe around the fit's suggestion for the free VRAM
 * measured with the server stopped (and the draft on and off when P has one),
 * skips every setting that leaves less free VRAM than the headroom once loaded
 * and warmed up, benches the rest, and recommends the fastest.
 */
export async function tuneProfile(deps: TuneDeps, idOrName: string, options: TuneOptions): Promise<BenchReport> {
  const session = new BenchSession(deps, { rounds: 1, ...options })
  const core = session.core
  const headroom = options.headroomMiB ?? core.settings.vramHeadroomMiB ?? DEFAULT_HEADROOM_MIB
  const radius = options.radius ?? 2
  const base = await prepareProfile(deps.home, idOrName)
  if (options.saveAs) {
    const store = await ProfileStore.open(deps.home)
    if (store.find(options.saveAs)) throw new TuneError(`a profile named "${options.saveAs}" already exists: choose another --save name`)
  }
  const models = await readModels(base.spec.args)
  const current = base.profile.settings.cpuMoe ? models.maxNCpuMoe : (base.profile.settings.nCpuMoe ?? models.launch.settings.nCpuMoe)
  const drafts = hasDraft(base.profile) ? [true, false] : [false]
  const notes: string[] = []
  const candidates: TuneCandidate[] = []
  const parts: ResultParts[] = []
  const benched: { n: number; draft: boolean; tps: number; target: PreparedTarget }[] = []
  let fitSuggestion: number | null = null
  let fitRuntimeMiB: number | null = null
  let idleFree: number | null = null

  const before = captureServerState(core)
  try {
    session.progress.report('measuring-vram', 'stopping the server to measure free VRAM', base.profile.id)
    await stopServer(core)
    const idle = await idleFreeVram(deps.telemetry, session)
    idleFree = idle?.mib ?? null
    if (idle === null) notes.push('no GPU data: the headroom cannot be checked and the sweep centres on the profile’s own setting')
    else {
      // The CUDA runtime learned on this GPU model after earlier launches, when there is one.
      const learned = idle.gpuName === null ? null : (await GpuRuntimeStore.open(deps.home)).runtimeMiB(idle.gpuName)
      const fit = models.fit(idle.mib, headroom, learned)
      fitSuggestion = fit.nCpuMoe
      fitRuntimeMiB = fit.runtimeMiB
    }
    if (models.maxNCpuMoe === 0) notes.push('the model has no expert tensors: only the draft is switched on and off')
    const center = fitSuggestion ?? current
    const plan = models.maxNCpuMoe === 0 ? [current] : sweepSettings(center, radius, models.maxNCpuMoe, current)
    for (let i = 0; i < plan.length * drafts.length; i++) session.planTarget()

    const tryOne = async (n: number, draft: boolean): Promise<void> => {
      const variant = withNCpuMoe(draft ? base.profile : withoutDraft(base.profile), n)
      const label = `--n-cpu-moe ${n}${drafts.length > 1 ? (draft ? ' + draft' : ', no draft') : ''}`
      const target = prepareVariant(base, variant, label)
      let minFree: number | null = null
      try {
        const s = await session.benchTarget(target, 0, label, async (loaded) => {
          minFree = loaded.minFreeVramMiB
          return minFree === null || minFree >= headroom
        })
        if (s.runs.length === 0) {
          candidates.push({
            nCpuMoe: n,
            draft,
            status: 'skipped-vram',
            minFreeVramMiB: minFree,
            reason: `${minFree} MiB free once loaded, under the ${headroom} MiB headroom`,
            tokensPerSecond: null,
          })
          return
        }
        const tps = median(medianRuns(s.runs).runs.map((r) => r.tokensPerSecond)) ?? 0
        candidates.push({ nCpuMoe: n, draft, status: 'benched', minFreeVramMiB: s.minFreeVramMiB, reason: null, tokensPerSecond: tps })
        parts.push({
          target: target.target,
          runs: s.runs,
          loadMs: s.loadMs,
          minFreeVramMiB: s.minFreeVramMiB,
          peakVramUsedMiB: s.peakVramUsedMiB,
        })
        benched.push({ n, draft, tps, target })
      } catch (err) {
        if (!(err instanceof BenchStartError)) throw err
        session.progress.unplan('warmup', 1)
        session.progress.unplan('run', session.config.runs * session.prompts.length)
        candidates.push({ nCpuMoe: n, draft, status: 'failed', minFreeVramMiB: null, reason: err.message, tokensPerSecond: null })
      }
    }

    for (const n of plan) for (const draft of drafts) await tryOne(n, draft)
    // Every setting left too little VRAM: more experts on the CPU free more, so keep going up.
    let next = (plan[plan.length - 1] ?? 0) + 1
    for (
      let extra = 0;
      benched.length === 0 &&
      candidates.some((c) => c.status === 'skipped-vram') &&
      extra < (options.maxExtraSteps ?? 8) &&
      next <= models.maxNCpuMoe;
      extra++, next++
    ) {
      for (let i = 0; i < drafts.length; i++) session.planTarget()
      for (const draft of drafts) await tryOne(next, draft)
    }
  } finally {
    session.progress.report('restoring', 'restoring the server as it was', before.profileId)
    await restoreServerState(core, before)
  }
  throwIfCancelled(session.signal)

  const best = benched.reduce<(typeof benched)[number] | null>((a, b) => (a === null || b.tps > a.tps ? b : a), null)
  if (!best)
    notes.push(
      candidates.every((c) => c.status === 'failed')
        ? 'no setting started: see the reasons'
        : `no setting kept ${headroom} MiB of VRAM free`,
    )
  let savedProfileId: string | null = null
  if (best && options.saveAs) {
    const note =
      `tuned by llama-tray on ${new Date().toISOString().slice(0, 10)}: --n-cpu-moe ${best.n}${best.draft ? ' with the draft' : ''}, ` +
      `${best.tps.toFixed(1)} ` +
      `tok/s`
    savedProfileId = await saveTunedProfile(deps.home, base.profile, best.n, best.draft, options.saveAs, note)
  }
  const tune: TuneSummary = {
    profileId: base.profile.id,
    fitSuggestion,
    fitRuntimeMiB,
    idleFreeVramMiB: idleFree,
    headroomMiB: headroom,
    candidates,
    recommended: best ? { nCpuMoe: best.n, draft: best.draft, tokensPerSecond: best.tps, args: [...best.target.spec.args] } : null,
    savedProfileId,
  }
  session.progress.report('done', 'done', null)
  return finishReport(session, 'tune', parts, notes, tune)
}
