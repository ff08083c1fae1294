import type { ServerStatus } from '../contract/server-state'
import type { GenerationSnapshot } from '../contract/generation'
import type { Snapshot } from '../contract/snapshot'
import type { CpuSnapshot, GpuSnapshot } from '../contract/telemetry'
import type { Warning } from '../contract/warnings'

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
