import { join } from 'node:path'
import { createLiveAdvisor } from '../advisor/live-advisor'
import { loadHeavyAppList } from '../telemetry/cpu/heavy-apps'
import { TelemetryService } from '../telemetry/telemetry-service'
import { HistoryStore } from '../history/history-store'
import { loadReports } from '../bench/report-store'
import { hardwareSnapshot, sameHardware } from '../bench/hardware'
import { SettingsStore } from '../settings/settings-store'
import { PolledPower } from '../platform/polled-power'
import { platformPowerSource } from '../platform/power-source-platform'
import { WindowsGameMode } from '../platform/win32/game-mode'
import { WindowsNotificationState } from '../platform/win32/notification-state'
import { platformGpuProcessReader } from '../telemetry/gpu/platform-gpu-processes'
import { LlamaTrayCore, type CoreOptions } from './llama-tray-core'

export interface StandardCoreOptions extends Partial<Omit<CoreOptions, 'home'>> {
  readonly home: string
  /** The GPU reader's sampling period (the settings' pollIntervalMs); the core's cadence drives the samples. */
  readonly intervalMs?: number
  /** Where a problem with the user's heavy-app list (or the usage history) is reported. */
  readonly warn?: (message: string) => void
}

/** The telemetry the core drives on its cadence, with the user's heavy-app list (<home>/heavy-apps.json). */
export function standardTelemetry(
  home: string,
  options: { readonly intervalMs?: number | undefined; readonly warn?: ((message: string) => void) | undefined } = {},
): TelemetryService {
  const heavy = loadHeavyAppList(join(home, 'heavy-apps.json'))
  if (heavy.problem) options.warn?.(heavy.problem)
  return new TelemetryService({ intervalMs: options.intervalMs, heavyApps: heavy.list, driven: true })
}

/**
 * The core as the app and the CLI run it: telemetry with the user's heavy-app
 * list (<home>/heavy-apps.json), the live advisor for warnings and fixes, and
 * the usage history (<home>/history.sqlite).
 */
export function createStandardCore(options: StandardCoreOptions): Promise<LlamaTrayCore> {
  const { home, intervalMs, warn, ...rest } = options
  const telemetry =
    rest.telemetry === undefined ? standardTelemetry(home, { intervalMs: rest.cadenceMs ?? intervalMs, warn }) : rest.telemetry
  let history: HistoryStore | null = null
  // Who else holds the GPU: read on demand only (the low-VRAM rule, the game watch), never while the GPU sleeps.
  const gpuProcesses =
    rest.gpuProcesses === undefined
      ? platformGpuProcessReader(() => telemetry?.latest().gpu?.devices[0]?.memoryUsedMiB ?? null)
      : rest.gpuProcesses
  const advisor = createLiveAdvisor({
    home,
    sharedGpuMemoryMiB: (pid) => telemetry?.sharedGpuMemoryMiB?.(pid) ?? null,
    gpuProcesses,
    // The low-VRAM fix's tok/s cost: rates measured here, in the usage history and the bench reports.
    speedSources: () => ({
      ...(history ? { requests: (profileId: string, sinceMs: number) => history!.listRequests({ profileId, sinceMs }) } : {}),
      benchResults: async () => {
        const here = hardwareSnapshot(telemetry?.latest().gpu ?? null)
        return (await loadReports(home)).filter((r) => sameHardware(r.report.hardware, here)).flatMap((r) => r.report.results)
      },
    }),
  })
  // The mutes are read before the first warnings, so that a muted one never shows at start.
  return Promise.all([advisor.mutes.ready, SettingsStore.open(home)]).then(([, settings]) => {
    history = rest.history === undefined ? historyStore(home, settings, warn) : rest.history
    return LlamaTrayCore.create({
      home,
      telemetry,
      warnings: advisor.warnings,
      warningsPending: advisor.pending,
      applyWarningFix: advisor.applyWarningFix,
      mutes: advisor.mutes,
      history,
      // The CLI polls the power source (only while the onBattery setting acts); the app passes Electron's powerMonitor.
      power: new PolledPower(platformPowerSource()),
      ...rest,
      gpuProcesses,
      gameMode: rest.gameMode === undefined ? platformGameMode() : rest.gameMode,
      fullScreen: rest.fullScreen === undefined ? platformFullScreen() : rest.fullScreen,
    })
  })
}

/** Windows' Game Mode (the effective power mode), where it can be read; null elsewhere (the game watch goes by the GPU alone). */
function platformGameMode(): WindowsGameMode | null {
  if (process.platform !== 'win32') return null
  const watch = WindowsGameMode.open()
  return typeof watch === 'string' ? null : watch
}

/** The shell's full-screen Direct3D hint (SHQueryUserNotificationState), on Windows only. */
function platformFullScreen(): WindowsNotificationState | null {
  if (process.platform !== 'win32') return null
  const shell = WindowsNotificationState.open()
  return typeof shell === 'string' ? null : shell
}

/** The usage history of <home>, its retention following the setting (read at each pass: a change applies without a restart). */
export function historyStore(home: string, settings: SettingsStore, warn?: (message: string) => void): HistoryStore {
  return HistoryStore.at(home, { notice: warn, keepMonths: () => settings.settings.historyKeepMonths })
}
