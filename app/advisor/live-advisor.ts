import type { Result } from '../contract/commands'
import type { ProfileSummary } from '../contract/profile'
import { hasProcess, type FailureKind } from '../contract/server-state'
import type { AppSettings } from '../contract/settings'
import type { Snapshot } from '../contract/snapshot'
import type { Warning, WarningFix, WarningWords } from '../contract/warnings'
import { median } from '../metrics/median'
import type { ServerBinaryInfo } from '../profiles/fork-detect'
import { ProfileStore } from '../profiles/store'
import { applyFixToStoredProfile } from './apply-profile-fix'
import { Hysteresis, type Transition } from './hysteresis'
import type { LintFinding, LintInput, LintPlatform } from './lint-input'
import { gatherProfileInput } from './lint-sources'
import {
  DEFAULT_LIVE_THRESHOLDS,
  LIVE_RULES,
  type LiveContext,
  type LiveRule,
  type LiveThresholds,
  type VramSuggestion,
} from './live-rules'
import { MuteStore } from './mutes'
import { lintArgs } from './rules'
import { suggestNCpuMoe, suggestVramFix } from './vram-suggestion'
import { measuredSpeeds, type SpeedSources } from './measured-speeds'
import { slowdownEstimate, slowdownWords, type MeasuredSpeed } from './speed-cost'
import { failed } from '../lib/failed'
import type { GpuProcessReader } from '../telemetry/gpu/gpu-process-reader'

export type LiveSnapshot = Omit<Snapshot, 'warnings'>

export interface LiveAdvisorOptions {
  readonly home: string
  readonly now?: () => number
  readonly platform?: LintPlatform
  readonly thresholds?: Partial<LiveThresholds>
  readonly rules?: readonly LiveRule[]
  /**
   * llama-server's shared (system) GPU memory in MiB (Windows PDH
   * `\GPU Process Memory(pid_<pid>*)\Shared Usage`, read by TelemetryService);
   * null where unknown: without it the sysmem-fallback rule stays silent.
   */
  readonly sharedGpuMemoryMiB?: (pid: number) => number | null
  /**
   * Which other programs hold the GPU (GpuProcessReader): the low-VRAM rule names the one to close. Peeked only
   * while that rule is about to raise or raised; absent or null: the rule keeps to the placement fix.
   */
  readonly gpuProcesses?: Pick<GpuProcessReader, 'peek'> | null
  /** Engine detection for the lint of the running profile (tests pass a fixture's). */
  readonly detect?: (home: string, binary: string) => Promise<ServerBinaryInfo>
  /** Where rates measured on this machine are read (history, bench reports): the low-VRAM fix's tok/s cost; none by default. */
  readonly speedSources?: () => SpeedSources
}

/** One raise or clear, for logs and tests. */
export interface WarningTransition {
  readonly time: number
  readonly id: string
  readonly transition: Exclude<Transition, null>
}

interface RuleState {
  readonly h: Hysteresis
  words: WarningWords
  fix: WarningFix | null
}

/** The lint of the profile that runs, with what the VRAM suggestion needs. */
interface ProfileFacts {
  readonly profileId: string
  readonly updatedAt: string
  readonly input: LintInput
  readonly findings: readonly LintFinding[]
  readonly lintedAt: number
  /** Rates measured for this launch at each --n-cpu-moe (other profiles of the model, bench results), read with the lint. */
  readonly speeds: readonly MeasuredSpeed[]
}

const LIVE_SAMPLES = 600
/** A failed read of the running profile's facts (engine detection, a locked file) is tried again after this. */
const RETRY_FACTS_MS = 15_000

/** NVIDIA names its laptop parts "… Laptop GPU" (NVML and nvidia-smi alike): the machine is a laptop. */
function laptopFromGpu(snapshot: LiveSnapshot): boolean | null {
  const name = snapshot.gpu?.devices[0]?.name
  return name ? /\bLaptop\b/i.test(name) : null
}
const SHARED_BASELINE_AFTER_MS = 10_000

/** Our own servers (the active one and the pinned ones): never "another program" on the GPU. */
function ownPids(snapshot: LiveSnapshot): number[] {
  const pids = [snapshot.server.pid, ...(snapshot.pinned ?? []).map((p) => p.pid)]
  return pids.filter((pid): pid is number => typeof pid === 'number')
}
const LEVEL_ORDER = { error: 0, warn: 1, info: 2 } as const

/**
 * Live warnings for the core: call warnings(snapshot, settings) once per tick.
 * Each live rule goes through its own hysteresis (raise after N samples, clear
 * after M, at most one raise a minute); the running profile's lint findings are
 * added once read. Everything is per profile: switching profiles starts fresh
 * states, and mutes are stored per profile.
 */
export class LiveAdvisor {
  readonly mutes: MuteStore
  private readonly now: () => number
  private readonly platform: LintPlatform
  private readonly thresholds: LiveThresholds
  private readonly rules: readonly LiveRule[]
  private readonly states = new Map<string, Map<string, RuleState>>()
  private readonly liveSamples = new Map<string, number[]>()
  private readonly baselines = new Map<string, number>()
  private readonly lastWarnings = new Map<string, Warning>()
  private readonly transitionsLog: WarningTransition[] = []
  private lastGeneratingAt: number | null = null
  private facts: ProfileFacts | null = null
  /** The profile the facts were last read for (found or not): a profile that is not stored is not looked for every tick. */
  private checkedProfileId: string | null = null
  /** Whether the machine is a laptop, from the GPU's name once telemetry has one; the facts are re-linted when it becomes known. */
  private laptop: boolean | null = null
  private loading: Promise<void> | null = null
  /** Counts profiles.json's change events (this process's writes and, through the store's folder watch, other processes'). */
  private profilesGeneration = 0
  /** The generation the facts were read at (-1: read again); a failed read is retried after RETRY_FACTS_MS. */
  private factsGeneration = -1
  private factsFailedAt: number | null = null
  private watchingProfiles = false
  private shared: { pid: number; baselineMiB: number | null } | null = null
  private suggestionCache: { key: string; value: VramSuggestion | null } | null = null
  /** The profile the last warnings were for ('none' without one). */
  private lastProfileId: string | null = null

  constructor(private readonly options: LiveAdvisorOptions) {
    this.now = options.now ?? Date.now
    this.platform = options.platform ?? (process.platform === 'win32' ? 'win32' : process.platform === 'darwin' ? 'darwin' : 'linux')
    this.thresholds = { ...DEFAULT_LIVE_THRESHOLDS, ...options.thresholds }
    this.rules = options.rules ?? LIVE_RULES
    this.mutes = new MuteStore(options.home)
  }

  /** The core's `warnings` option. */
  readonly warnings = (snapshot: LiveSnapshot, settings: Pick<AppSettings, 'vramHeadroomMiB' | 'gpuTemperatureWarnC'>): Warning[] => {
    const now = this.now()
    const profileId = snapshot.server.profileId ?? 'none'
    this.refreshFacts(profileId, now, laptopFromGpu(snapshot))
    const gen = snapshot.generation
    if (gen?.active && snapshot.server.state === 'ready') this.lastGeneratingAt = now
    this.recordLiveSample(profileId, snapshot)
    const ctxBaseline = this.frozenBaseline(profileId, snapshot)
    const ctx: LiveContext = {
      snapshot,
      settings,
      now,
      platform: this.platform,
      thresholds: this.thresholds,
      baselineTokensPerSecond: ctxBaseline,
      lastGeneratingAt: this.lastGeneratingAt,
      vramSuggestion: (free) => this.withSpeedCost(this.vramSuggestion(profileId, free, settings.vramHeadroomMiB), ctxBaseline),
      sharedGpu: this.sharedGpu(snapshot, now),
      fixForFailure: (kind) => this.fixForFailure(profileId, kind),
      gpuHolders: () => this.options.gpuProcesses?.peek(ownPids(snapshot)) ?? null,
    }
    this.lastProfileId = profileId
    const states = this.statesFor(profileId)
    const out: Warning[] = []
    for (const rule of this.rules) {
      let state = states.get(rule.id)
      if (!state) {
        state = { h: new Hysteresis(rule.hysteresis), words: { headline: '', reason: '' }, fix: null }
        states.set(rule.id, state)
      }
      const e = rule.evaluate(ctx, state.h.raised)
      if (e.words !== undefined) {
        state.words = e.words
        state.fix = e.fix ?? null
      }
      const id = `${rule.id}@${profileId}`
      const t = state.h.update(e.active, now)
      if (t) this.logTransition({ time: now, id, transition: t })
      const stale = rule.onlyWhileRunning === true && !hasProcess(snapshot.server.state)
      if (state.h.raised && !stale && !this.mutes.isMuted(profileId, rule.id, rule.id)) {
        out.push({
          id,
          level: rule.level,
          headline: state.words.headline,
          reason: state.words.reason,
          fix: state.fix,
          rule: rule.id,
          source: 'live',
          profileId,
          since: state.h.since ?? now,
        })
      }
    }
    const facts = this.facts
    if (facts && facts.profileId === profileId) {
      for (const f of facts.findings) {
        if (this.mutes.isMuted(profileId, f.rule, f.id)) continue
        out.push({
          id: `${f.id}@${profileId}`,
          level: f.level,
          headline: f.headline,
          reason: f.reason,
          fix: f.fix,
          rule: f.rule,
          source: 'lint',
          profileId,
          since: facts.lintedAt,
        })
      }
    }
    out.sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level])
    this.lastWarnings.clear()
    for (const w of out) this.lastWarnings.set(w.id, w)
    return out
  }

  /**
   * The core's `warningsPending` option: whether a live warning of the last warnings' profile saw its first samples
   * and waits for the rest (a muted one aside), so that the core takes them at its usual pace.
   */
  readonly pending = (): boolean => {
    const profileId = this.lastProfileId
    const states = profileId === null ? undefined : this.states.get(profileId)
    if (!states || profileId === null) return false
    for (const [ruleId, state] of states) if (state.h.pending && !this.mutes.isMuted(profileId, ruleId, ruleId)) return true
    return false
  }

  /** The core's `applyWarningFix` option: applies the warning's fix to the profile it concerns. */
  readonly applyWarningFix = async (warningId: string, home: string = this.options.home): Promise<Result<ProfileSummary>> => {
    const at = warningId.lastIndexOf('@')
    const profileId = at > 0 ? warningId.slice(at + 1) : null
    let fix = this.lastWarnings.get(warningId)?.fix ?? null
    if (!fix && profileId && warningId.startsWith('lint.')) fix = await this.lintFixFor(home, profileId, warningId.slice(0, at))
    if (!profileId || profileId === 'none')
      return failed('profile', `warning "${warningId}" concerns no stored profile, so it has no fix to store`)
    if (!fix) return failed('profile', `no fix is available for "${warningId}": it may have cleared`)
    const result = await applyFixToStoredProfile(home, profileId, fix, new Date(this.now()))
    if (result.ok) {
      this.facts = null // re-lint the changed profile
      this.factsGeneration = -1
      this.suggestionCache = null
    }
    return result
  }

  /** Mutes a rule ("live.heavy-apps") or a finding ("lint.duplicate-flag:-vhad") for a profile. */
  mute(profileId: string, key: string): Promise<void> {
    return this.mutes.mute(profileId, key)
  }

  unmute(profileId: string, key: string): Promise<void> {
    return this.mutes.unmute(profileId, key)
  }

  /** Raises and clears so far, oldest first (bounded). */
  transitions(): readonly WarningTransition[] {
    return this.transitionsLog
  }

  /** Resolves when the running profile's lint (if one is being read) is done. */
  async settled(): Promise<void> {
    while (this.loading) await this.loading
  }

  private logTransition(t: WarningTransition): void {
    this.transitionsLog.push(t)
    if (this.transitionsLog.length > 500) this.transitionsLog.shift()
  }

  private statesFor(profileId: string): Map<string, RuleState> {
    let s = this.states.get(profileId)
    if (!s) {
      s = new Map()
      this.states.set(profileId, s)
    }
    return s
  }

  private recordLiveSample(profileId: string, snapshot: LiveSnapshot): void {
    const tps = snapshot.generation?.active ? snapshot.generation.tokensPerSecond : null
    if (tps === null || tps === undefined || !(tps > 0)) return
    const list = this.liveSamples.get(profileId) ?? []
    list.push(tps)
    if (list.length > LIVE_SAMPLES) list.shift()
    this.liveSamples.set(profileId, list)
  }

  /**
   * The baseline, held still while a slowdown is pending: the slow requests it
   * is measuring must not redefine "normal" before it can raise (they enter the
   * rolling median). Once raised it follows the recent median again, so it clears
   * when speed is back to what is normal now.
   */
  private frozenBaseline(profileId: string, snapshot: LiveSnapshot): number | null {
    const speed = this.states.get(profileId)?.get('live.speed-drop')
    const held = this.baselines.get(profileId)
    if (speed?.h.pending && held !== undefined) return held
    const fresh = this.baseline(profileId, snapshot)
    if (fresh !== null) this.baselines.set(profileId, fresh)
    return fresh ?? held ?? null
  }

  /** The profile's rolling median of finished requests (3 or more), else the median of its live samples (30 or more). */
  private baseline(profileId: string, snapshot: LiveSnapshot): number | null {
    const rolling = snapshot.generation?.rolling
    if (rolling && rolling.profileId === profileId && rolling.requests >= 3 && rolling.medianTokensPerSecond !== null)
      return rolling.medianTokensPerSecond
    const samples = this.liveSamples.get(profileId) ?? []
    return samples.length >= 30 ? median(samples) : null
  }

  private sharedGpu(snapshot: LiveSnapshot, now: number): LiveContext['sharedGpu'] {
    const read = this.options.sharedGpuMemoryMiB
    const server = snapshot.server
    if (!read || server.state !== 'ready') {
      this.shared = null
      return { baselineMiB: null, currentMiB: null }
    }
    const pid = server.pid
    if (this.shared?.pid !== pid) this.shared = { pid, baselineMiB: null }
    const current = read(pid)
    if (this.shared.baselineMiB === null && current !== null && now - server.readySince >= SHARED_BASELINE_AFTER_MS)
      this.shared.baselineMiB = current
    return { baselineMiB: this.shared.baselineMiB, currentMiB: current }
  }

  private vramSuggestion(profileId: string, freeMiB: number, headroomMiB: number): VramSuggestion | null {
    const facts = this.facts
    if (!facts || facts.profileId !== profileId || !facts.input.model) return null
    // Free VRAM moves a little every sample; the answer only changes with a step of experts (~0.5 GB).
    const key = `${profileId}:${facts.lintedAt}:${Math.round(freeMiB / 128)}:${headroomMiB}`
    if (this.suggestionCache?.key !== key)
      this.suggestionCache = { key, value: suggestVramFix(facts.input.model, facts.input.draft, facts.input.args, freeMiB, headroomMiB) }
    return this.suggestionCache.value
  }

  /**
   * The fix's cost in tok/s where measured rates say it: the facts' rates, and the running profile's own recent median
   * at the --n-cpu-moe it runs. Unchanged (no cost) when unknown.
   */
  private withSpeedCost(suggestion: VramSuggestion | null, baseline: number | null): VramSuggestion | null {
    const facts = this.facts
    if (!suggestion?.nCpuMoe || !facts) return suggestion
    const { from, to } = suggestion.nCpuMoe
    const own = baseline !== null && baseline > 0 ? [{ nCpuMoe: from, tokensPerSecond: baseline }] : []
    const cost = slowdownWords(slowdownEstimate([...facts.speeds, ...own], from, to))
    return cost ? { ...suggestion, fix: { ...suggestion.fix, cost } } : suggestion
  }

  private fixForFailure(profileId: string, kind: FailureKind | null): WarningFix | null {
    const facts = this.facts
    if (!facts || facts.profileId !== profileId) return null
    if (kind === 'flag-unknown' || kind === 'flag-removed' || kind === 'flag-value')
      return facts.findings.find((f) => f.rule === 'lint.flag-rejected' && f.fix)?.fix ?? null
    if (kind === 'exposed-without-key') return facts.findings.find((f) => f.rule === 'lint.exposed-without-key')?.fix ?? null
    if (kind?.startsWith('out-of-memory') && facts.input.model)
      return suggestNCpuMoe(facts.input.model, facts.input.draft, facts.input.args, 0, 1536)?.fix ?? null
    return null
  }

  private async lintFixFor(home: string, profileId: string, key: string): Promise<WarningFix | null> {
    const store = await ProfileStore.open(home)
    const profile = store.file.profiles.find((p) => p.id === profileId)
    if (!profile) return null
    const { input } = await gatherProfileInput(home, profile, {
      platform: this.platform,
      laptop: this.laptop,
      ...(this.options.detect ? { detect: this.options.detect } : {}),
    })
    return lintArgs(input).find((f) => f.id === key)?.fix ?? null
  }

  /** Reads and lints the running profile in the background: on a switch, and when it was edited. */
  private refreshFacts(profileId: string, now: number, laptop: boolean | null): void {
    if (this.loading || profileId === 'none') return
    const laptopLearned = laptop !== null && laptop !== this.laptop
    if (laptop !== null) this.laptop = laptop
    const retry = this.factsFailedAt !== null && now - this.factsFailedAt >= RETRY_FACTS_MS
    const stale = this.checkedProfileId !== profileId || laptopLearned || this.factsGeneration !== this.profilesGeneration || retry
    if (!stale) return
    this.checkedProfileId = profileId
    this.factsFailedAt = null
    const generation = this.profilesGeneration
    const known = laptopLearned ? null : this.facts
    this.loading = (async () => {
      // Re-read only when profiles.json changed (the store's change events; this was a stat every 15 s).
      const store = await ProfileStore.open(this.options.home)
      if (!this.watchingProfiles) {
        this.watchingProfiles = true
        store.onDidChange(() => this.profilesGeneration++)
      }
      this.factsGeneration = generation
      const profile = store.file.profiles.find((p) => p.id === profileId)
      if (!profile) {
        this.facts = null
        return
      }
      if (known && known.profileId === profileId && known.updatedAt === profile.updatedAt) return
      const { input } = await gatherProfileInput(this.options.home, profile, {
        platform: this.platform,
        laptop: this.laptop,
        ...(this.options.detect ? { detect: this.options.detect } : {}),
      })
      const sources = this.options.speedSources?.()
      const speeds = sources ? await measuredSpeeds(profile, store.file.profiles, sources) : []
      this.facts = { profileId, updatedAt: profile.updatedAt, input, findings: lintArgs(input), lintedAt: this.now(), speeds }
    })()
      .catch(() => {
        this.facts = null
        this.factsFailedAt = this.now()
      })
      .finally(() => {
        this.loading = null
      })
  }
}

/** What LlamaTrayCore.create takes: `{ warnings, applyWarningFix }` (plus the advisor, for mutes). */
export function createLiveAdvisor(options: LiveAdvisorOptions): LiveAdvisor {
  return new LiveAdvisor(options)
}
