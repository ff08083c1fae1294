import type { AppSettings } from './settings'

/**
 * What each setting does, in a few words: the CLI's `settings` list and the Settings view say the same.
 * A Record over every key, so a new setting does not compile until it has its words here.
 */
export const SETTING_LABELS: Readonly<Record<keyof AppSettings, string>> = {
  port: 'Port: the one port clients use (the endpoint, or every profile without --port)',
  endpoint: 'One OpenAI-compatible endpoint on the port, in front of the server',
  switchOnRequest: 'A request naming another profile switches to it',
  heldRequestsMax: 'Requests held while the server starts or switches',
  heldRequestWaitS: 'Seconds a held request waits for the server',
  switchDrainS: 'Seconds a switch waits for running requests before it cuts them',
  switchMinResidencyS: 'Seconds a busy profile stays loaded while others wait',
  vramHeadroomMiB: 'Warn when free VRAM is under this many MiB',
  gpuTemperatureWarnC: 'Warn when the GPU is hotter than this (°C)',
  heavyApps: 'Process names counted as heavy apps, besides the built-in list',
  pollIntervalMs: 'How often the figures are sampled (ms)',
  notifications: 'Desktop notifications',
  startWithSystem: 'Start Llama Tray with the system',
  modelDirs: 'Model folders: extra folders searched for GGUF models',
  startProfileOnLaunch: 'A profile to start when Llama Tray starts (none for none)',
  hardwareAcceleration: 'Hardware acceleration for the dashboard (takes VRAM from the model; applies after a restart)',
  engineUpdateCheck: 'Check once a day whether a newer llama.cpp is out (a notice only: nothing is downloaded)',
  endpointAllowedOrigins: 'Web origins whose pages may call the endpoint',
  endpointAllowedHosts: 'Extra host names the endpoint answers to',
  endpointMaxBodyMiB: 'The largest request body the endpoint accepts (MiB)',
  watchdogIntervalS: 'Seconds between health probes, 3× that while idle (0 turns the watchdog off)',
  watchdogMisses: 'Unanswered probes in a row before a restart',
  historyKeepMonths: 'Months the usage history keeps each request',
  onBattery: 'On battery: keep the server, stop it, or switch to a profile (back on AC, the one before returns)',
  onGame: 'When a game takes the GPU: keep the server, let it sleep (a request wakes it), or stop it (back after the game)',
  gameGpuBusyPct: "A game: another program's 3D-engine use above this %",
  gameVramMiB: 'A game: that program holds more than this much GPU memory (MiB)',
  gameHoldS: 'A game: both hold for this many seconds',
  gameBackAfterS: 'Seconds after the game ends before the profile returns',
}
