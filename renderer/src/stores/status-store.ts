import { create } from 'zustand'
import type { ServerStatus } from '../../../app/contract/server-state'

interface StatusState {
  readonly status: ServerStatus | null
  /** When this window saw the current state begin (epoch ms): the loading clock. */
  readonly stateSince: number
}

/** The supervisor's status as main pushes it (never set optimistically). */
export const useStatusStore = create<StatusState>()(() => ({ status: null, stateSince: Date.now() }))

export function receiveStatus(status: ServerStatus): void {
  const previous = useStatusStore.getState().status
  const changed = previous?.state !== status.state || previous.profileId !== status.profileId
  useStatusStore.setState(changed ? { status, stateSince: Date.now() } : { status })
}
