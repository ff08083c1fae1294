import type { GenerationSnapshot, RollingGenerationFigures } from '../../../app/contract/generation'
import type { ServerStateKind, ServerStatus } from '../../../app/contract/server-state'
import type { CpuSnapshot, GpuDevice, GpuSnapshot, HeavyAppSnapshot } from '../../../app/contract/telemetry'
import type { LiveSnapshot } from '../../../app/advisor/live-advisor'
import { serverStatus } from '../../helpers/server-status'

/** One synthetic sample: only what a test varies; the rest is a quiet, ready server. */
export interface SampleSpec {
  readonly time: number
  readonly profileId?: string
  readonly state?: ServerStateKind
  readonly lastExit?: ServerStatus['lastExit']
  readonly restarts?: number
  readonly freeMiB?: number | null
  readonly temperatureC?: number | null
  readonly throttleReasons?: readonly string[]
  readonly heavyApps?: readonly HeavyAppSnapshot[]
  readonly systemPct?: number | null
  readonly active?: boolean
  readonly tokensPerSecond?: number | null
  readonly rollingMedian?: number | null
  /** The threads llama-server logged it generates with. */
  readonly threads?: number
  /** The last finished request's prompt: tokens and tokens/s. */
  readonly lastPrompt?: { readonly tokens: number; readonly tokensPerSecond: number }
  /** The profile's usual speed on long prompts, and over how many. */
  readonly longPromptMedian?: { readonly tokensPerSecond: number; readonly count: number }
  readonly gpu?: GpuSnapshot | null
}

export function device(over: Partial<GpuDevice> = {}): GpuDevice {
  return {
    index: 0,
    name: 'NVIDIA GeForce RTX 4060 Laptop GPU',
    memoryTotalMiB: 8188,
    memoryUsedMiB: 5400,
    memoryFreeMiB: 2548,
    memoryReservedMiB: 240,
    temperatureC: 59,
    utilizationPct: 30,
    powerW: 40,
    powerLimitW: 80,
    smClockMHz: 1800,
    pstate: 'P0',
    throttleReasons: [],
    ...over,
  }
}

export function sample(s: SampleSpec): LiveSnapshot {
  const profileId = s.profileId ?? 'p'
  const rolling: RollingGenerationFigures | null =
    (s.rollingMedian === undefined || s.rollingMedian === null) && !s.longPromptMedian
      ? null
      : {
          profileId,
          requests: 10,
          medianTokensPerSecond: s.rollingMedian ?? null,
          medianPromptTokensPerSecond: null,
          medianLongPromptTokensPerSecond: s.longPromptMedian?.tokensPerSecond ?? null,
          longPrompts: s.longPromptMedian?.count ?? 0,
          draftAcceptance: null,
        }
  const generation: GenerationSnapshot = {
    active: s.active ?? false,
    tokensPerSecond: s.active ? (s.tokensPerSecond ?? null) : null,
    slots: [],
    last: s.lastPrompt
      ? {
          time: s.time,
          slotId: 0,
          taskId: 1,
          promptTokens: s.lastPrompt.tokens,
          promptMs: (s.lastPrompt.tokens * 1000) / s.lastPrompt.tokensPerSecond,
          promptTokensPerSecond: s.lastPrompt.tokensPerSecond,
          predictedTokens: 100,
          predictedMs: 2500,
          predictedTokensPerSecond: 40,
          draftTokens: null,
          draftAccepted: null,
          draftAcceptance: null,
        }
      : null,
    contextUsed: null,
    contextSize: null,
    poll: { state: 'ok', detail: null },
    rolling,
    threads: s.threads ?? null,
  }
  const gpu: GpuSnapshot =
    s.gpu !== undefined && s.gpu !== null
      ? s.gpu
      : {
          available: true,
          reason: null,
          backend: 'nvml',
          stale: false,
          sampledAt: s.time,
          devices: [
            device({
              memoryFreeMiB: s.freeMiB === undefined ? 2548 : s.freeMiB,
              temperatureC: s.temperatureC === undefined ? 59 : s.temperatureC,
              throttleReasons: s.throttleReasons ?? [],
            }),
          ],
        }
  const cpu: CpuSnapshot = {
    systemPct: s.systemPct ?? 40,
    ramTotalMiB: 32768,
    ramFreeMiB: 8000,
    server: { pid: 4242, cpuPct: 50, rssMiB: 20000 },
    heavyApps: s.heavyApps ?? [],
    topProcesses: [],
  }
  const server = replayedStatus(s.state ?? 'ready', s, profileId)
  return { time: s.time, server, generation, gpu, cpu }
}

/** The server in the sample's state: a ready one since long ago, a restart 2 s after the sample. */
function replayedStatus(state: ServerStateKind, s: SampleSpec, profileId: string): ServerStatus {
  const common = { profileId, exe: 'llama-server', restarts: s.restarts ?? 0 }
  const exit = s.lastExit ? { lastExit: s.lastExit } : {}
  switch (state) {
    case 'ready':
      return serverStatus('ready', { ...common, ...exit, readySince: 0 })
    case 'backoff':
      return serverStatus('backoff', { ...common, ...exit, restartAt: s.time + 2000 })
    case 'crashloop':
    case 'errored':
      return serverStatus(state, { ...common, ...exit })
    default:
      return serverStatus(state, { ...common, ...exit })
  }
}
