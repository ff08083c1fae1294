import { create } from 'zustand'
import type { LlamaTrayApi } from '../../app/contract/commands'
import type { ServerStatus } from '../../app/contract/server-state'

interface ServerStoreState {
  readonly status: ServerStatus | null
}

/** State only; main owns the truth and pushes it (never set optimistically). */
export const useServerStore = create<ServerStoreState>()(() => ({ status: null }))

export function receiveStatus(status: ServerStatus): void {
  useServerStore.setState({ status })
}

/** Subscribes the store to main's pushes; returns the unsubscribe function. */
export function connectServerStore(api: LlamaTrayApi): () => void {
  const off = api.onServerStateChanged(receiveStatus)
  void api.serverStatus().then(receiveStatus)
  return off
}
