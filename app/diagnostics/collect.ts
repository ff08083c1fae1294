import { arch, platform, release, userInfo, version as osVersion } from 'node:os'
import { DEFAULT_SETTINGS, type AppSettings } from '../contract/settings'
import type { ServerStatus } from '../contract/server-state'
import type { PinnedServerView } from '../contract/snapshot'
import type { GpuSnapshot } from '../contract/telemetry'
import { listInstalled } from '../engines/installed'
import { detectFork, type ServerBinaryInfo } from '../profiles/fork-detect'
import { quoteBash } from '../profiles/export-command'
import { profileArgv } from '../profiles/launch-spec'
import type { Profile } from '../profiles/schema'
import { peekProfiles } from '../profiles/store'
import { peekSettings } from '../settings/settings-store'
import { serverLogPath } from '../supervisor/log-file'
import type { GpuInventory } from '../telemetry/gpu/inventory'
import { readLogTail } from './log-tail'
import type { StateTransition } from './state-history'

/** The end of llama-server's log in a bundle: its last starts and exits, never megabytes. */
export const LOG_TAIL_BYTES = 256 * 1024
export const LOG_TAIL_LINES = 2000
/** A pinned server's log is bounded tighter: it sits beside the active one's in the bundle. */
const PINNED_LOG_TAIL_BYTES = 64 * 1024
const PINNED_LOG_TAIL_LINES = 500
/** The supervisor's own lines ("[llama-tray] started …", exits, restarts) kept apart from the tail. */
const SUPERVISOR_LINES = 30

/** Where the facts come from: the core in the app, the home folder and one-shot readers in the CLI. */
export interface DiagnosticsSources {
  readonly home: string
  readonly appVersion: string
  /** The environment the app runs in: its secret-named values are redacted, the user's name is read from it. */
  readonly env: Readonly<Record<string, string | undefined>>
  /** The server's status (null where no core runs it, as in the CLI). */
  readonly status: ServerStatus | null
  /** The pinned profiles' servers as the core runs them (absent where no core runs them, as in the CLI). */
  readonly pinned?: readonly PinnedServerView[]
  readonly transitions: readonly StateTransition[]
  /** The telemetry's GPU reading (or a fresh one). */
  readonly gpu: () => Promise<GpuSnapshot | null>
  /** `nvidia-smi -q -x`: the driver, CUDA and the GPUs' names. */
  readonly inventory: () => Promise<GpuInventory | { readonly error: string }>
  /** Default: detectFork on this home (cached in engines.json). */
  readonly detectFork?: (binary: string) => Promise<ServerBinaryInfo>
  readonly now?: () => Date
}

export interface ProfileEntry {
  readonly id: string
  readonly name: string
  readonly active: boolean
  /** The command as a bash line, its environment first (redacted later, with everything else). */
  readonly command: string
}

/** The end of one log file, bounded as the bundle bounds it. */
export interface LogEntry {
  readonly file: string
  readonly sizeBytes: number | null
  readonly truncated: boolean
  readonly problem: string | null
  readonly lines: readonly string[]
}

/** A pinned profile's server: its state where a core runs it, and its own log (logs/llama-server-<id>.log). */
export interface PinnedEntry {
  readonly profileId: string
  readonly server: PinnedServerView | null
  readonly log: LogEntry
}

export type EngineFacts =
  | { readonly binary: string; readonly kind: string; readonly version: string | null; readonly commit: string | null }
  | { readonly binary: string; readonly error: string }

export interface DiagnosticsReport {
  readonly createdAt: string
  readonly versions: {
    readonly app: string
    readonly node: string
    readonly electron: string | null
    readonly os: string
    readonly nvidiaDriver: string | null
    readonly cuda: string | null
  }
  /** The active profile's llama-server (or the running one), as engine detection sees it. */
  readonly engine: EngineFacts | null
  readonly gpu: { readonly inventory: GpuInventory | { readonly error: string }; readonly reading: GpuSnapshot | null }
  readonly server: {
    readonly status: ServerStatus | null
    readonly transitions: readonly StateTransition[]
    /** The supervisor's own log lines ("[llama-tray] started …", exits, restarts), also written by other processes. */
    readonly supervisorLines: readonly string[]
  }
  readonly profiles: { readonly health: string; readonly activeProfileId: string | null; readonly list: readonly ProfileEntry[] }
  readonly settings: { readonly values: AppSettings; readonly problem: string | null }
  readonly engines: readonly {
    readonly id: string
    readonly version: string | null
    readonly path: string
    readonly installedAt: string
    readonly usedBy: readonly string[]
  }[]
  readonly log: LogEntry
  /** Every pinned profile, with the end of its server's own log. */
  readonly pinned: readonly PinnedEntry[]
}

/** Everything gathered, not yet redacted, and the profiles it was read from (their keys are the secrets to remove). */
export interface Collected {
  readonly report: DiagnosticsReport
  readonly profiles: readonly Profile[]
}

/** The profiles file, read without opening the store (diagnostics never write to it). */
async function readProfiles(home: string): Promise<{ health: string; activeProfileId: string | null; profiles: readonly Profile[] }> {
  const parsed = await peekProfiles(home).catch((err: Error) => ({ kind: 'corrupt' as const, reason: err.message }))
  if (parsed.kind === 'missing') return { health: 'missing', activeProfileId: null, profiles: [] }
  if (parsed.kind === 'corrupt') return { health: `unreadable: ${parsed.reason}`, activeProfileId: null, profiles: [] }
  const health = parsed.kind === 'newer' ? `from a newer Llama Tray (schema ${parsed.version})` : 'ok'
  return { health, activeProfileId: parsed.file.activeProfileId, profiles: parsed.file.profiles }
}

async function readSettings(home: string): Promise<DiagnosticsReport['settings']> {
  const peeked = await peekSettings(home).catch((err: Error) => ({ kind: 'invalid' as const, reason: err.message }))
  if (peeked.kind === 'missing') return { values: DEFAULT_SETTINGS, problem: null }
  if (peeked.kind === 'invalid')
    return { values: DEFAULT_SETTINGS, problem: `settings.json cannot be used (${peeked.reason}); the app uses the defaults` }
  if (peeked.kind === 'newer')
    return { values: peeked.value, problem: `settings.json is from a newer Llama Tray (version ${peeked.version})` }
  return { values: peeked.value, problem: peeked.notices.length > 0 ? `settings.json: ${peeked.notices.join(' ')}` : null }
}

/** A profile's command as one bash line, environment first. */
export function commandLineOf(profile: Profile): string {
  const env = Object.entries(profile.env).map(([k, v]) => `${k}=${quoteBash(v)}`)
  return [...env, ...profileArgv(profile).map(quoteBash)].join(' ')
}

async function engineFacts(binary: string | null, detect: (binary: string) => Promise<ServerBinaryInfo>): Promise<EngineFacts | null> {
  if (!binary) return null
  try {
    const info = await detect(binary)
    return { binary: info.binary, kind: info.fork, version: info.version, commit: info.commit }
  } catch (err) {
    return { binary, error: (err as Error).message }
  }
}

function osDescription(): string {
  let detail = ''
  try {
    detail = osVersion()
  } catch {
    // os.version() is missing on a few platforms
  }
  return `${platform()} ${release()} ${arch()}${detail ? ` (${detail})` : ''}`
}

/** The OS user's names: the system's and the environment's (they differ under sudo or in a container). */
export function osUserNames(env: Readonly<Record<string, string | undefined>>): (string | null)[] {
  let system: string | null = null
  try {
    system = userInfo().username
  } catch {
    // no passwd entry (a container): the environment still says
  }
  return [system, env.USER ?? null, env.USERNAME ?? null, env.LOGNAME ?? null]
}

/** A GPU's UUID identifies this machine and helps no one reading the bundle. */
function withoutUuids(inventory: GpuInventory | { readonly error: string }): GpuInventory | { readonly error: string } {
  return 'error' in inventory ? inventory : { ...inventory, gpus: inventory.gpus.map((g) => ({ ...g, uuid: null })) }
}

async function readLogEntry(file: string, maxBytes: number, maxLines: number): Promise<LogEntry> {
  const tail = await readLogTail(file, maxBytes, maxLines)
  return { file, sizeBytes: tail.sizeBytes, truncated: tail.truncated, problem: tail.problem ?? null, lines: tail.lines }
}

/** Gathers the facts of a diagnostics bundle (unredacted: bundle.ts redacts every text made of them). */
export async function collectDiagnostics(sources: DiagnosticsSources): Promise<Collected> {
  const { home } = sources
  const logFile = serverLogPath(home, null)
  const [stored, settings, inventory, reading, installed, log] = await Promise.all([
    readProfiles(home),
    readSettings(home),
    sources.inventory(),
    sources.gpu().catch(() => null),
    listInstalled(home).catch(() => []),
    readLogEntry(logFile, LOG_TAIL_BYTES, LOG_TAIL_LINES),
  ])
  const active = stored.profiles.find((p) => p.id === (sources.status?.profileId ?? stored.activeProfileId)) ?? null
  const binary = sources.status?.exe ?? (active && active.binary !== '' ? active.binary : null)
  const engine = await engineFacts(binary, sources.detectFork ?? ((b) => detectFork(home, b)))
  const pinned = await Promise.all(
    stored.profiles
      .filter((p) => p.pinned)
      .map(async (p): Promise<PinnedEntry> => {
        const log = await readLogEntry(serverLogPath(home, p.id), PINNED_LOG_TAIL_BYTES, PINNED_LOG_TAIL_LINES)
        return { profileId: p.id, server: sources.pinned?.find((s) => s.profileId === p.id) ?? null, log }
      }),
  )
  const report: DiagnosticsReport = {
    createdAt: (sources.now?.() ?? new Date()).toISOString(),
    versions: {
      app: sources.appVersion,
      node: process.versions.node,
      electron: process.versions.electron ?? null,
      os: osDescription(),
      nvidiaDriver: 'error' in inventory ? null : inventory.driverVersion,
      cuda: 'error' in inventory ? null : inventory.cudaVersion,
    },
    engine,
    gpu: { inventory: withoutUuids(inventory), reading },
    server: {
      status: sources.status,
      transitions: sources.transitions,
      supervisorLines: log.lines.filter((l) => l.startsWith('[llama-tray]')).slice(-SUPERVISOR_LINES),
    },
    profiles: {
      health: stored.health,
      activeProfileId: active?.id ?? null,
      list: stored.profiles.map((p) => ({ id: p.id, name: p.name, active: p.id === active?.id, command: commandLineOf(p) })),
    },
    settings,
    engines: installed.map((e) => ({
      id: e.id,
      version: e.version,
      path: e.path,
      installedAt: e.installedAt,
      usedBy: e.usedBy.map((u) => u.id),
    })),
    log,
    pinned,
  }
  return { report, profiles: stored.profiles }
}
