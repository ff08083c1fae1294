import type { ServerStatus } from '../contract/server-state'
import type { CpuSnapshot, GenerationSnapshot, GpuSnapshot, Snapshot, Warning } from '../contract/snapshot'

export interface SnapshotParts {
  readonly generation?: GenerationSnapshot | null
  readonly gpu?: GpuSnapshot | null
  readonly cpu?: CpuSnapshot | null
  readonly warnings?: readonly Warning[]
}

/** Assembles the Snapshot every view receives; parts not measured yet are null. */
export function buildSnapshot(server: ServerStatus, parts: SnapshotParts = {}, time = Date.now()): Snapshot {
  return {
    time,
    server,
    generation: parts.generation ?? null,
    gpu: parts.gpu ?? null,
    cpu: parts.cpu ?? null,
    warnings: parts.warnings ?? [],
  }
}
