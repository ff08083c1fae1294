import { create } from 'zustand'
import type { Snapshot } from '../../../app/contract/snapshot'
import { recordSnapshot } from './chart-histories'

interface SnapshotState {
  readonly snapshot: Snapshot | null
}

/** The latest snapshot main pushed (1 Hz while a server runs or this window is shown). */
export const useSnapshotStore = create<SnapshotState>()(() => ({ snapshot: null }))

export function receiveSnapshot(snapshot: Snapshot): void {
  recordSnapshot(snapshot)
  useSnapshotStore.setState({ snapshot })
}
