import type { PowerStatus } from '../contract/power'

/**
 * The machine's power source, read cheaply (a few sysfs files, one kernel32 call): meant for every few seconds.
 * Electron's powerMonitor says the same in the app, with events.
 */
export interface PowerSourceReader {
  read(): PowerStatus
}

/** The power source and its changes: Electron's powerMonitor in the app, a poll of the reader in the CLI. */
export interface PowerEvents {
  current(): PowerStatus
  /** Calls `listener` when the source changes (AC ↔ battery); returns its unsubscribe. */
  onChange(listener: (status: PowerStatus) => void): () => void
  /** Calls `listener` when the machine wakes from sleep (the app's powerMonitor 'resume'); the CLI sees clock jumps instead. */
  onResume?(listener: () => void): () => void
  /** Calls `listener` when the machine is about to sleep (the app's powerMonitor 'suspend'): the awake clock leaves the span out. */
  onSuspend?(listener: () => void): () => void
}
