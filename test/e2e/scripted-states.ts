import type { GameHold } from '../../app/contract/game'
import type { PowerStatus } from '../../app/contract/power'
import type { ServerStatus, ServerStatusOf } from '../../app/contract/server-state'
import type { Snapshot } from '../../app/contract/snapshot'
import type { Warning } from '../../app/contract/warnings'
import { exitInfo } from '../../app/supervisor/supervised-run'
import { NEVER_STARTED, serverStatus } from '../helpers/server-status'

// Server states and snapshots as the core would push them, for views that must
// be looked at without a real llama-server (the accessibility scan, fast).

export function stoppedStatus(profileId: string | null = null): ServerStatus {
  return { ...NEVER_STARTED, profileId }
}

export function readyStatus(profileId: string, now = Date.now()): ServerStatusOf<'ready'> {
  return serverStatus('ready', { profileId, port: 8081, exe: '/opt/llama.cpp/llama-server', readySince: now - 90_000 })
}

export function loadingStatus(profileId: string): ServerStatus {
  return serverStatus('loading', { profileId, port: 8081, exe: '/opt/llama.cpp/llama-server' })
}

export function failedStatus(profileId: string): ServerStatus {
  return serverStatus('errored', {
    profileId,
    lastExit: exitInfo(
      { code: 1, signal: null },
      {
        kind: 'model-missing',
        reason: 'the model file /models/moved-away.gguf does not exist',
        hint: 'Choose the model again in the profile (Profiles → Model → Choose…).',
      },
      ['llama_model_load: error loading model: failed to open /models/moved-away.gguf', 'main: exiting due to model loading error'],
    ),
  })
}

export const LOW_VRAM: Warning = {
  id: 'live.vram-low@qwen',
  level: 'warn',
  rule: 'live.vram-low',
  source: 'live',
  profileId: null,
  // The live advisor's words on Windows (app/advisor/live-rules.ts), with the fit's placement and its cost from measured rates.
  headline: 'Free VRAM on GPU 0 is 740 MiB, under the 1536 MiB headroom: generation may slow down several times.',
  reason:
    'On Windows the NVIDIA driver then spills into system RAM (sysmem fallback) instead of failing: on an RTX 4060 Laptop (8 GB) ' +
    'generation fell to ~7 tok/s at ~740 MB free, and keeping 1.5 GB free fixed it. The fit suggests --n-cpu-moe 38 (about 1012 MiB ' +
    'less on the GPU); on an RTX 4060 Laptop (8 GB), fewer experts on the GPU was even faster.',
  fix: {
    label: 'Move more experts to the CPU (--n-cpu-moe 38)',
    removeArgs: ['--n-cpu-moe'],
    addArgs: ['--n-cpu-moe', '38'],
    cost: 'about 1.6 tok/s slower (estimate)',
  },
}

/**
 * A long warning the advisor words (the sysmem fallback's, its reason at its longest figures) with the longest fix label: what
 * the popover and the dashboard must wrap inside 360 px.
 */
export const LONGEST_WARNING: Warning = {
  id: 'live.sysmem-fallback@qwen',
  level: 'error',
  rule: 'live.sysmem-fallback',
  source: 'live',
  profileId: null,
  headline: 'Spilling into system RAM (sysmem fallback): generation slows to a crawl.',
  reason:
    'Llama-server now holds 1843 MiB more shared GPU memory than after loading, and ' +
    "generation is at 7.1 tok/s, 19% of this profile's median and VRAM is full (0 MiB free). " +
    'On an RTX 4060 Laptop (8 GB) it fell to ~7 tok/s. Use --n-cpu-moe 38, or set "CUDA - Sysmem Fallback ' +
    'Policy" to "Prefer No Sysmem Fallback" for llama-server.exe in the NVIDIA Control Panel.',
  fix: { label: 'Move more experts to the CPU (--n-cpu-moe 38)', removeArgs: ['--n-cpu-moe'], addArgs: ['--n-cpu-moe', '38'] },
}

/** A crash loop with the longest reason and hint a diagnosis gives (an unbroken token included, which must wrap too). */
/** A game the onGame watch saw take the GPU (onGame stop stopped the server for it), as the snapshot carries it. */
export const GAME_STOPPED: GameHold = { name: 'Cyberpunk2077.exe', pid: 15320, dedicatedMiB: 5120, since: 0, action: 'stopped' }

/** A laptop on battery with battery saver on: the popover's and the dashboard's power line. */
export const ON_BATTERY: PowerStatus = { source: 'battery', batteryPercent: 41, charging: false, saver: true }

export function longestFailureStatus(profileId: string): ServerStatus {
  return serverStatus('crashloop', {
    profileId,
    restarts: 4,
    lastExit: exitInfo(
      { code: null, signal: 'SIGSEGV' },
      {
        kind: 'assertion',
        reason:
          'llama-server hit an internal assertion: GGML_ASSERT(ggml_nbytes(src0)<=INT_MAX)_failed_in_ggml-cuda/cpy.cu_at_line_123 while ' +
          'copying the KV cache of a 131072-token context',
        hint: 'lower -c or --cache-type-k, or update llama.cpp (Settings → Engines → Check for updates); if it persists, report it',
      },
      ['ggml-cuda/cpy.cu:123: GGML_ASSERT(ggml_nbytes(src0) <= INT_MAX) failed'],
    ),
  })
}

/** A running server generating, with GPU and CPU telemetry; `gpu: false` for a machine without an NVIDIA driver. */
export function runningSnapshot(
  status: ServerStatus,
  options: { warnings?: readonly Warning[]; gpu?: boolean; generating?: boolean; time?: number; freeMiB?: number } = {},
): Snapshot {
  const time = options.time ?? Date.now()
  const generating = options.generating ?? true
  const free = options.freeMiB ?? 2400
  const last = {
    time,
    slotId: 0,
    taskId: 7,
    promptTokens: 812,
    promptMs: 2100,
    promptTokensPerSecond: 386.7,
    predictedTokens: 640,
    predictedMs: 19000,
    predictedTokensPerSecond: 33.6,
    draftTokens: 500,
    draftAccepted: 340,
    draftAcceptance: 0.68,
  }
  return {
    time,
    server: status,
    generation:
      status.state === 'ready'
        ? {
            active: generating,
            tokensPerSecond: generating ? 31.4 : null,
            slots: [],
            last,
            contextUsed: 4000,
            contextSize: 32768,
            poll: { state: 'ok', detail: null },
            rolling: {
              profileId: status.profileId ?? 'qwen',
              requests: 12,
              medianTokensPerSecond: 36.2,
              medianPromptTokensPerSecond: 390,
              medianLongPromptTokensPerSecond: 402,
              longPrompts: 6,
              draftAcceptance: 0.7,
              joulesPer1000Tokens: 2650,
            },
          }
        : null,
    gpu:
      options.gpu === false
        ? {
            available: false,
            reason: 'No NVIDIA GPU data: NVML unavailable: libnvidia-ml.so.1: cannot open shared object file: No such file or directory',
            backend: null,
            stale: false,
            sampledAt: null,
            devices: [],
          }
        : {
            available: true,
            reason: null,
            backend: 'nvml',
            stale: false,
            sampledAt: time,
            devices: [
              {
                index: 0,
                name: 'NVIDIA GeForce RTX 4060 Laptop GPU',
                memoryTotalMiB: 8188,
                memoryUsedMiB: 8188 - free,
                memoryFreeMiB: free,
                memoryReservedMiB: 0,
                temperatureC: 61,
                utilizationPct: 42,
                powerW: 48,
                powerLimitW: 115,
                smClockMHz: 2100,
                pstate: 'P0',
                throttleReasons: [],
              },
            ],
          },
    cpu: {
      systemPct: 71,
      ramTotalMiB: 32_000,
      ramFreeMiB: 9000,
      server: status.pid ? { pid: status.pid, cpuPct: 48, rssMiB: 20_400 } : null,
      heavyApps: [{ name: 'Discord', pids: [5100], cpuPct: 14 }],
      topProcesses: [
        { name: 'Discord', pid: 5100, cpuPct: 14 },
        { name: 'chrome', pid: 5200, cpuPct: 6 },
      ],
    },
    warnings: options.warnings ?? [],
  }
}
