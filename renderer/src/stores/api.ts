import type { LlamaTrayApi } from '../../../app/contract/commands'

let current: LlamaTrayApi | null = null

/** The contract, as the preload exposes it (set once at start-up). */
export function setApi(api: LlamaTrayApi): void {
  current = api
}

export function api(): LlamaTrayApi {
  if (!current) throw new Error('window.llamaTray is missing: the dashboard runs inside Llama Tray')
  return current
}
