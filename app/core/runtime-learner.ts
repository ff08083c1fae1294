import type { EventChannels } from '../contract/commands'
import type { Snapshot } from '../contract/snapshot'
import { GpuRuntimeStore } from '../fit/runtime-store'
import { fitProfile } from '../profiles/profile-fit'

export interface RuntimeLearnerDeps {
  readonly home: string
  /** What our running server holds on the GPU now (MiB), or null when unknown. */
  readonly serverGpuMiB: () => number | null
  /** Epoch ms of the running server's launch, or null. */
  readonly launchedAt: () => number | null
  /** Whether the profile changed after the launch (then what runs is not its placement). */
  readonly editedSinceLaunch: (profileId: string) => Promise<boolean>
}

interface SnapshotSource {
  on(event: 'snapshot', listener: EventChannels['snapshot']): () => void
}

/** The launch a snapshot can teach: ready, a request of this launch answered, and a GPU sample taken after that answer. */
function teachable(snapshot: Snapshot, launchedAt: number): { readonly profileId: string; readonly gpuName: string } | null {
  const { server, generation, gpu } = snapshot
  const answered = generation?.last ?? null
  const device = gpu?.available ? gpu.devices[0] : undefined
  if (server.state !== 'ready' || server.profileId === null || answered === null || answered.time < launchedAt) return null
  if (!device?.name || (gpu?.sampledAt ?? 0) < answered.time) return null
  return { profileId: server.profileId, gpuName: device.name }
}

/**
 * Learns this GPU model's CUDA runtime from launches, on the core's snapshots:
 * what a ready server holds beyond the estimated buffers of its own placement.
 * Only after the server answered a request (the first one allocates cuBLAS
 * workspaces and graphs, +100 MiB on the H200, so a reading at ready
 * under-states it), once per launch, into <home>/gpu-runtime.json. The fit only
 * reads that file. Returns the unsubscribe.
 */
export function learnGpuRuntime(core: SnapshotSource, deps: RuntimeLearnerDeps): () => void {
  let taught: number | null = null
  return core.on('snapshot', (snapshot) => {
    const launchedAt = deps.launchedAt()
    if (launchedAt === null || taught === launchedAt) return
    const lesson = teachable(snapshot, launchedAt)
    const held = lesson ? deps.serverGpuMiB() : null
    if (!lesson || held === null) return
    taught = launchedAt
    void (async () => {
      if (await deps.editedSinceLaunch(lesson.profileId)) return
      const own = await fitProfile(deps.home, lesson.profileId, { freeVramMiB: null, headroomMiB: 0, runtimeMiB: 0 })
      if (own.placement.nGpuLayers === 0) return // nothing on the GPU: no runtime to see
      await (await GpuRuntimeStore.open(deps.home)).record(lesson.gpuName, held - own.total.gpu.totalMiB)
    })().catch(() => {
      // A profile that cannot be fitted (a `run --cmd` launch, a deleted profile) teaches nothing.
    })
  })
}
