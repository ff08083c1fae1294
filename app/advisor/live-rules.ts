import { asSentence, sentences } from '../contract/wording'
import type { FailureKind } from '../contract/server-state'
import type { AppSettings } from '../contract/settings'
import type { Snapshot } from '../contract/snapshot'
import { SLOWDOWN_THROTTLE_REASONS, type GpuDevice } from '../contract/telemetry'
import type { WarningFix, WarningLevel, WarningWords } from '../contract/warnings'
import { F } from './flag-names'
import type { HysteresisConfig, Observation } from './hysteresis'
import type { LintPlatform } from './lint-input'
import { LONG_PROMPT_TOKENS } from '../metrics/rolling-figures'
import type { GpuProcessUse } from '../platform/gpu-processes'

/** Tunables of the live rules (defaults from the seeds and the issue). */
export interface LiveThresholds {
  /** A heavy app counts when it uses at least this share of the machine (or when its share is unknown). */
  readonly heavyAppMinCpuPct: number
  /** "Slow" is below this fraction of the profile's recent median… */
  readonly speedDropRatio: number
  /** …for this long; it is over once back above speedRecoverRatio. */
  readonly speedDropMs: number
  readonly speedRecoverRatio: number
  /** Heavy apps matter while the server generated within this window. */
  readonly recentGenerationMs: number
  /** Free VRAM must climb this far above the headroom to clear (threshold hysteresis). */
  readonly vramClearBandMiB: number
  readonly temperatureClearBandC: number
  /** Sysmem fallback: dedicated VRAM nearly full (free under this) and shared usage grown by more than sysmemGrowthMiB. */
  readonly sysmemFreeMiB: number
  readonly sysmemGrowthMiB: number
}

export const DEFAULT_LIVE_THRESHOLDS: LiveThresholds = {
  heavyAppMinCpuPct: 5,
  speedDropRatio: 0.6,
  speedDropMs: 10_000,
  speedRecoverRatio: 0.75,
  recentGenerationMs: 30_000,
  vramClearBandMiB: 256,
  temperatureClearBandC: 3,
  sysmemFreeMiB: 300,
  sysmemGrowthMiB: 256,
}

/** A change the fit estimates would give the headroom back (a higher --n-cpu-moe, else a shorter -c). */
export interface VramSuggestion {
  /** The change as flags ("--n-cpu-moe 38", "-c 8192"). */
  readonly change: string
  readonly savedMiB: number
  readonly fix: WarningFix
  /** The expert layers on the CPU before and after, when the change is a higher --n-cpu-moe (what its tok/s cost is fitted at). */
  readonly nCpuMoe?: { readonly from: number; readonly to: number }
}

export interface LiveContext {
  readonly snapshot: Omit<Snapshot, 'warnings'>
  readonly settings: Pick<AppSettings, 'vramHeadroomMiB' | 'gpuTemperatureWarnC'>
  readonly now: number
  readonly platform: LintPlatform
  readonly thresholds: LiveThresholds
  /** This profile's recent median generation rate (finished requests, else live samples); null until known. */
  readonly baselineTokensPerSecond: number | null
  /** Epoch ms the server was last seen generating. */
  readonly lastGeneratingAt: number | null
  readonly vramSuggestion: (freeMiB: number) => VramSuggestion | null
  /**
   * llama-server's shared (system) GPU memory now and its baseline after the load; null where not measured (everywhere but Windows PDH).
   */
  readonly sharedGpu: { readonly baselineMiB: number | null; readonly currentMiB: number | null }
  /** The lint fix that matches a failure (a rejected flag), if any. */
  readonly fixForFailure: (kind: FailureKind | null) => WarningFix | null
  /**
   * Other programs on the GPU (not our servers), largest dedicated memory first, as last read; asking starts a read
   * when that one is old. Null where the platform does not name them or nothing was read yet (absent: never).
   */
  readonly gpuHolders?: () => readonly GpuProcessUse[] | null
}

export interface LiveEvaluation {
  readonly active: Observation
  /** What to say (and the fix) for now; kept from the last active sample otherwise. */
  readonly words?: WarningWords
  readonly fix?: WarningFix | null
}

export interface LiveRule {
  readonly id: string
  readonly level: WarningLevel
  readonly summary: string
  readonly hysteresis: HysteresisConfig
  /** `raised`: whether it is raised now (the clear threshold may differ from the raise threshold). */
  readonly evaluate: (ctx: LiveContext, raised: boolean) => LiveEvaluation
  /** About the running server's figures: not shown once no server of ours runs (its hysteresis would keep it for a few samples). */
  readonly onlyWhileRunning?: boolean
}

function gpuDevices(ctx: LiveContext): readonly GpuDevice[] | null {
  const gpu = ctx.snapshot.gpu
  return gpu && gpu.available && !gpu.stale ? gpu.devices : null
}

/** The device with the least free VRAM. */
export function tightestDevice(devices: readonly GpuDevice[]): { device: GpuDevice; freeMiB: number } | null {
  let best: { device: GpuDevice; freeMiB: number } | null = null
  for (const d of devices)
    if (d.memoryFreeMiB !== null && (best === null || d.memoryFreeMiB < best.freeMiB)) best = { device: d, freeMiB: d.memoryFreeMiB }
  return best
}

const ready = (ctx: LiveContext): boolean => ctx.snapshot.server.state === 'ready'

function heavyApps(ctx: LiveContext): string[] {
  return (ctx.snapshot.cpu?.heavyApps ?? [])
    .filter((a) => a.cpuPct === null || a.cpuPct >= ctx.thresholds.heavyAppMinCpuPct)
    .map((a) => (a.cpuPct === null ? a.name : `${a.name} (${Math.round(a.cpuPct)}% CPU)`))
}

function throttling(devices: readonly GpuDevice[] | null): string[] {
  return [...new Set((devices ?? []).flatMap((d) => (d.throttleReasons ?? []).filter((r) => SLOWDOWN_THROTTLE_REASONS.has(r))))]
}

/**
 * What the throttling GPU draws, in words, where NVML or nvidia-smi says it: the power and the enforced limit (laptop
 * GPUs often report no limit, "[N/A]": then only the draw), and whether the power cap is among the clock events.
 */
export function throttleWatts(devices: readonly GpuDevice[]): string {
  const d = devices.find((x) => (x.throttleReasons ?? []).some((r) => SLOWDOWN_THROTTLE_REASONS.has(r)))
  if (!d || d.powerW === null) return ''
  const draw = `${Math.round(d.powerW)} W`
  const capped = d.throttleReasons?.includes('sw_power_cap') ? ', at its power cap' : ''
  return d.powerLimitW === null ? `It draws ${draw}${capped}. ` : `It draws ${draw} of its ${Math.round(d.powerLimitW)} W limit${capped}. `
}

function hottest(devices: readonly GpuDevice[] | null): number | null {
  const temps = (devices ?? []).map((d) => d.temperatureC).filter((t): t is number => t !== null)
  return temps.length > 0 ? Math.max(...temps) : null
}

/** The likeliest reason generation is slow, from what is measured now. */
export function likelyCause(ctx: LiveContext): string {
  const causes: string[] = []
  const apps = heavyApps(ctx)
  if (apps.length > 0) causes.push(`CPU-heavy apps: ${apps.join(', ')}`)
  const devices = gpuDevices(ctx)
  const tight = devices ? tightestDevice(devices) : null
  if (tight && tight.freeMiB < ctx.settings.vramHeadroomMiB)
    causes.push(`low free VRAM (${Math.round(tight.freeMiB)} MiB${ctx.platform === 'win32' ? ': sysmem fallback' : ''})`)
  const reasons = throttling(devices)
  if (reasons.length > 0) causes.push(`GPU throttling (${reasons.join(', ')})`)
  const temp = hottest(devices)
  if (temp !== null && temp >= ctx.settings.gpuTemperatureWarnC) causes.push(`a hot GPU (${temp} °C)`)
  const cpu = ctx.snapshot.cpu
  if (causes.length === 0 && cpu?.systemPct != null && cpu.systemPct >= 90) {
    const top = cpu.topProcesses.slice(0, 3).map((p) => `${p.name} ${Math.round(p.cpuPct)}%`)
    causes.push(`the CPU is ${Math.round(cpu.systemPct)}% busy${top.length > 0 ? ` (${top.join(', ')})` : ''}`)
  }
  const used = ctx.snapshot.generation?.contextUsed
  if (causes.length === 0 && used != null && used > 0) causes.push(`a longer context (${used} tokens in use): attention slows as it grows`)
  return causes.length > 0 ? causes.join('; ') : 'nothing measured explains it'
}

/**
 * llama-server's threads meet at a barrier after every step, so an app that takes one core stalls all
 * of them: one thread fewer than it uses leaves that core to the app. Measured (npm run bench threads,
 * 2 cores, one kept busy): 9 tok/s with both threads, 99 tok/s with -t 1.
 */
function leaveACoreFix(threads: number | null): WarningFix | null {
  if (threads === null || threads < 2) return null
  return { label: `Leave a core to other apps (-t ${threads - 1})`, removeArgs: [...F.threads], addArgs: ['-t', String(threads - 1)] }
}

/** An idle gap this short is a client between two requests, not an idle server. */
const BETWEEN_REQUESTS_MS = 5000

/**
 * The other program whose memory alone would give the headroom back (the largest such), where the platform names
 * GPU processes: closing it is the fix then. Read only while the rule is about to raise or raised.
 */
export function vramHolder(ctx: LiveContext, freeMiB: number): { readonly name: string; readonly mib: number } | null {
  const deficit = ctx.settings.vramHeadroomMiB - freeMiB
  const top = (ctx.gpuHolders?.() ?? []).find((p) => p.name !== null && p.dedicatedMiB !== null && p.dedicatedMiB >= Math.max(deficit, 256))
  return top?.name && top.dedicatedMiB !== null ? { name: top.name, mib: Math.round(top.dedicatedMiB) } : null
}

const fmt = (n: number): string => (n >= 100 ? String(Math.round(n)) : n.toFixed(1))

export const LIVE_RULES: readonly LiveRule[] = [
  {
    id: 'live.vram-low',
    level: 'warn',
    onlyWhileRunning: true,
    summary: 'free VRAM under the headroom (default 1.5 GB)',
    hysteresis: { raiseAfter: 3, clearAfter: 5 },
    evaluate: (ctx, raised) => {
      if (!ready(ctx)) return { active: false }
      const devices = gpuDevices(ctx)
      const tight = devices ? tightestDevice(devices) : null
      if (!tight) return { active: null }
      const limit = ctx.settings.vramHeadroomMiB + (raised ? ctx.thresholds.vramClearBandMiB : 0)
      if (tight.freeMiB >= limit) return { active: false }
      const suggestion = ctx.vramSuggestion(tight.freeMiB)
      const windows = ctx.platform === 'win32'
      const cost = windows ? 'generation may slow down several times' : 'a longer context or a second request may run out of GPU memory'
      const why = windows
        ? 'On Windows the NVIDIA driver then spills into system RAM (sysmem fallback) instead of failing: on an RTX 4060 Laptop (8 GB) ' +
          'generation fell to ~7 tok/s at ~740 MB free, and keeping 1.5 GB free fixed it.'
        : ''
      const fit = suggestion
        ? `The fit suggests ${suggestion.change} (about ${Math.round(suggestion.savedMiB)} MiB less on the GPU)` +
          (suggestion.change.startsWith('--n-cpu-moe') ? '; on an RTX 4060 Laptop (8 GB), fewer experts on the GPU was even faster.' : '.')
        : ''
      const holder = vramHolder(ctx, tight.freeMiB)
      return {
        active: true,
        words: {
          headline: holder
            ? `Free VRAM on GPU ${tight.device.index} is ${Math.round(tight.freeMiB)} MiB: ${holder.name} holds ` +
              `${holder.mib.toLocaleString('en-US')} MiB. Close it${suggestion ? `, or use ${suggestion.change}` : ''}.`
            : `Free VRAM on GPU ${tight.device.index} is ${Math.round(tight.freeMiB)} MiB, under the ${ctx.settings.vramHeadroomMiB} ` +
              `MiB headroom: ${cost}.`,
          reason: sentences(holder ? `That is under the ${ctx.settings.vramHeadroomMiB} MiB headroom: ${cost}.` : '', why, fit),
        },
        fix: suggestion?.fix ?? null,
      }
    },
  },
  {
    id: 'live.heavy-apps',
    level: 'warn',
    summary: 'CPU-heavy apps running while the server generates',
    hysteresis: { raiseAfter: 2, clearAfter: 3 },
    evaluate: (ctx) => {
      if (!ctx.snapshot.cpu) return { active: null }
      const generating = ctx.lastGeneratingAt !== null && ctx.now - ctx.lastGeneratingAt <= ctx.thresholds.recentGenerationMs
      const apps = heavyApps(ctx)
      if (!generating || apps.length === 0) return { active: false }
      // The headline names the busiest one or two (busiest first); the reason lists them all.
      const named = apps.length <= 2 ? apps.join(' and ') : `${apps[0]} and ${apps.length - 1} more apps`
      return {
        active: true,
        words: {
          headline: `${named} ${apps.length === 1 ? 'is' : 'are'} running while llama-server generates.`,
          reason:
            (apps.length > 2 ? `Running: ${apps.join(', ')}. ` : '') +
            'With experts on the CPU the CPU is the bottleneck: on an RTX 4060 Laptop (8 GB), closing Discord and heavy browser ' +
            'tabs took generation from ~6 to ~18 tok/s.',
        },
        fix: null,
      }
    },
  },
  {
    id: 'live.speed-drop',
    level: 'warn',
    summary: "generation below 60% of this profile's recent median for 10 s",
    hysteresis: { raiseAfter: 5, raiseAfterMs: 10_000, clearAfter: 3 },
    evaluate: (ctx, raised) => {
      const gen = ctx.snapshot.generation
      if (!ready(ctx) || !gen) return { active: false }
      if (!gen.active) {
        // Between a client's back-to-back requests the evidence carries over (no sample either way);
        // a longer idle spell starts afresh, so slow samples must again last 10 s.
        const sinceLast = gen.last ? ctx.snapshot.time - gen.last.time : Infinity
        return { active: sinceLast <= BETWEEN_REQUESTS_MS ? null : false }
      }
      // Short requests may finish before the poller has a live rate: while the warning stands,
      // the last finished request's own figure is evidence enough that speed has come back.
      const tps = gen.tokensPerSecond ?? (raised ? (gen.last?.predictedTokensPerSecond ?? null) : null)
      const base = ctx.baselineTokensPerSecond
      if (tps === null || base === null || base <= 0) return { active: null }
      const ratio = raised ? ctx.thresholds.speedRecoverRatio : ctx.thresholds.speedDropRatio
      if (tps >= ratio * base) return { active: false }
      return {
        active: true,
        words: {
          headline: `Generation is at ${fmt(tps)} tok/s, ${Math.round((tps / base) * 100)}% of this profile's recent median (${fmt(base)} tok/s).`,
          reason: `Likely cause: ${likelyCause(ctx)}.`,
        },
        fix: heavyApps(ctx).length > 0 ? leaveACoreFix(gen.threads ?? null) : null,
      }
    },
  },
  {
    id: 'live.prompt-slow',
    level: 'warn',
    summary: "a long prompt processed at under 60% of this profile's usual prompt speed",
    hysteresis: { raiseAfter: 2, clearAfter: 2 },
    evaluate: (ctx, raised) => {
      const gen = ctx.snapshot.generation
      const last = gen?.last
      const usual = gen?.rolling
      // Only a long prompt is evidence either way; until the next one the state stands.
      if (!ready(ctx) || !last || last.promptTokens < LONG_PROMPT_TOKENS) return { active: null }
      if (!usual || usual.longPrompts < 5 || usual.medianLongPromptTokensPerSecond === null || usual.medianLongPromptTokensPerSecond <= 0)
        return { active: null }
      const base = usual.medianLongPromptTokensPerSecond
      const ratio = last.promptTokensPerSecond / base
      if (ratio >= (raised ? ctx.thresholds.speedRecoverRatio : ctx.thresholds.speedDropRatio)) return { active: false }
      return {
        active: true,
        words: {
          headline:
            `The last prompt was processed at ${fmt(last.promptTokensPerSecond)} tok/s, ` +
            `${Math.round(ratio * 100)}% of this profile's usual ${fmt(base)} tok/s.`,
          reason:
            `It had ${last.promptTokens} tokens; the usual speed is the median of this profile's ${usual.longPrompts} recent prompts ` +
            `of ${LONG_PROMPT_TOKENS} tokens or more. ` +
            'Prompt speed can break alone (on an RTX 3090, an ik_llama.cpp/buun update cost ~38% of prompt speed until fixed); ' +
            `if nothing else changed, likely cause: ${likelyCause(ctx)}.`,
        },
        fix: null,
      }
    },
  },
  {
    id: 'live.gpu-throttle',
    level: 'warn',
    summary: 'the GPU is slowing itself down (thermal or power-brake clock events)',
    hysteresis: { raiseAfter: 3, clearAfter: 5 },
    evaluate: (ctx) => {
      const devices = gpuDevices(ctx)
      if (!devices) return { active: null }
      const reasons = throttling(devices)
      if (reasons.length === 0) return { active: false }
      return {
        active: true,
        words: {
          headline: `The GPU is throttling (${reasons[0]}${reasons.length > 1 ? ` and ${reasons.length - 1} more` : ''}): clocks are lowered to protect it.`,
          reason:
            (reasons.length > 1 ? `Its clock event reasons: ${reasons.join(', ')}. ` : '') +
            `${throttleWatts(devices)}Improve cooling or airflow, or lower the power limit deliberately.`,
        },
        fix: null,
      }
    },
  },
  {
    id: 'live.gpu-hot',
    level: 'warn',
    summary: 'GPU temperature above the threshold (default 85 °C)',
    hysteresis: { raiseAfter: 3, clearAfter: 5 },
    evaluate: (ctx, raised) => {
      const temp = hottest(gpuDevices(ctx))
      if (temp === null) return { active: null }
      const limit = ctx.settings.gpuTemperatureWarnC - (raised ? ctx.thresholds.temperatureClearBandC : 0)
      if (temp < limit) return { active: false }
      return {
        active: true,
        words: {
          headline: `The GPU is at ${temp} °C (warning at ${ctx.settings.gpuTemperatureWarnC} °C); it will throttle soon.`,
          reason: 'An RTX 4060 Laptop running Qwen3.6-35B-A3B stayed at 59 °C and never throttled.',
        },
        fix: null,
      }
    },
  },
  {
    id: 'live.server-failed',
    level: 'error',
    summary: 'a start that failed, or a crash loop (with the diagnosis)',
    hysteresis: { raiseAfter: 1, clearAfter: 1, minRaiseIntervalMs: 0 },
    evaluate: (ctx) => {
      const s = ctx.snapshot.server
      if (s.state !== 'errored' && s.state !== 'crashloop') return { active: false }
      const exit = s.lastExit // always set in the failed states
      const head =
        s.state === 'crashloop'
          ? `llama-server crashed ${s.restarts + 1} times in a row; Llama Tray stopped restarting it`
          : 'llama-server failed to start'
      // The headline is the cause where the diagnosis names one; what Llama Tray did about it opens the reason.
      return {
        active: true,
        words: exit.reason
          ? { headline: asSentence(exit.reason), reason: sentences(head, exit.hint) }
          : { headline: asSentence(head), reason: sentences(exit.hint) },
        fix: ctx.fixForFailure(exit.kind),
      }
    },
  },
  {
    id: 'live.server-restarting',
    level: 'warn',
    summary: 'the server exited unexpectedly and is being restarted',
    hysteresis: { raiseAfter: 1, clearAfter: 1, minRaiseIntervalMs: 0 },
    evaluate: (ctx) => {
      const s = ctx.snapshot.server
      if (s.state === 'starting' || s.state === 'downloading' || s.state === 'loading') return { active: null }
      if (s.state !== 'backoff') return { active: false }
      const wait = ` in ${Math.max(0, Math.round((s.restartAt - ctx.now) / 1000))} s`
      return {
        active: true,
        words: {
          headline: asSentence(
            `llama-server exited unexpectedly${s.lastExit.reason ? ` (${s.lastExit.reason})` : ''}; restarting${wait} (restart ` +
              `${s.restarts + 1})`,
          ),
          reason: '',
        },
        fix: null,
      }
    },
  },
  {
    id: 'live.sysmem-fallback',
    level: 'error',
    summary: "Windows: llama-server's shared (system) GPU memory growing while generation slows or dedicated VRAM is nearly full",
    hysteresis: { raiseAfter: 3, clearAfter: 5 },
    evaluate: (ctx) => {
      if (ctx.platform !== 'win32' || !ready(ctx)) return { active: null }
      const { baselineMiB, currentMiB } = ctx.sharedGpu
      if (baselineMiB === null || currentMiB === null) return { active: null }
      const grown = currentMiB - baselineMiB
      const devices = gpuDevices(ctx)
      const tight = devices ? tightestDevice(devices) : null
      const vramFull = tight !== null && tight.freeMiB < ctx.thresholds.sysmemFreeMiB
      // The user-visible symptom: the live rate under 60% of the profile's median (no GPU reading needed).
      const gen = ctx.snapshot.generation
      const tps = gen?.active ? gen.tokensPerSecond : null
      const base = ctx.baselineTokensPerSecond
      const slowed = tps !== null && base !== null && base > 0 && tps < ctx.thresholds.speedDropRatio * base
      if (grown <= ctx.thresholds.sysmemGrowthMiB || (!vramFull && !slowed)) return { active: false }
      const suggestion = tight ? ctx.vramSuggestion(tight.freeMiB) : null
      const evidence = [
        ...(slowed && tps !== null && base !== null
          ? [`generation is at ${fmt(tps)} tok/s, ${Math.round((tps / base) * 100)}% of this profile's median`]
          : []),
        ...(vramFull && tight ? [`VRAM is full (${Math.round(tight.freeMiB)} MiB free)`] : []),
      ].join(' and ')
      return {
        active: true,
        words: {
          headline: 'Spilling into system RAM (sysmem fallback): generation slows to a crawl.',
          reason:
            `Llama-server now holds ${Math.round(grown)} MiB more shared GPU memory than after loading, and ${evidence}. ` +
            'On an RTX 4060 Laptop (8 GB) it fell to ~7 tok/s. ' +
            `${suggestion ? `Use ${suggestion.change}` : 'Raise --n-cpu-moe (more experts on the CPU)'}, ` +
            'or set "CUDA - Sysmem Fallback Policy" to "Prefer No Sysmem Fallback" for llama-server.exe in the NVIDIA Control Panel.',
        },
        fix: suggestion?.fix ?? null,
      }
    },
  },
]
