import type { LlamaTrayApi } from '../../app/contract/commands'

declare global {
  interface Window {
    /** Exposed by main/preload.ts; undefined when the page runs outside Electron. */
    readonly llamaTray?: LlamaTrayApi
  }
}
