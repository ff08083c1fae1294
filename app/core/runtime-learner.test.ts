import { describe, expect, it, vi } from 'vitest'
import type { EventChannels } from '../contract/commands'
import type { GenerationSnapshot, RequestTimings } from '../contract/generation'
import { serverStatus } from '../../test/helpers/server-status'
import type { Snapshot } from '../contract/snapshot'
import { Listeners } from '../lib/listeners'
import { buildSnapshot } from '../snapshot/build-snapshot'
import { learnGpuRuntime } from './runtime-learner'

const READY = serverStatus('ready', { profileId: 'tiny', pid: 7, port: 8080, exe: 'llama-server', readySince: 0 })
const answeredAt = (time: number): GenerationSnapshot => ({ last: { time } as RequestTimings }) as GenerationSnapshot
const gpuAt = (sampledAt: number, name: string | null = 'RTX 4060 Laptop GPU'): Snapshot['gpu'] =>
  ({
    available: true,
    reason: null,
    backend: 'nvml',
    stale: false,
    sampledAt,
    devices: [{ name, memoryUsedMiB: 900 }],
  }) as unknown as Snapshot['gpu']

function setup(): { emit: (s: Snapshot) => void; measured: ReturnType<typeof vi.fn>; launch: (at: number) => void } {
  const events = new Listeners<EventChannels>()
  let launchedAt: number | null = 1000
  const measured = vi.fn(() => 450)
  learnGpuRuntime(events, {
    home: '/nonexistent',
    serverGpuMiB: measured,
    launchedAt: () => launchedAt,
    editedSinceLaunch: async () => true,
  })
  return { emit: (s) => events.emit('snapshot', s), measured, launch: (at) => (launchedAt = at) }
}

describe('learnGpuRuntime (what a snapshot must show before a launch teaches the runtime)', () => {
  it.each([
    [
      'a server that is not ready',
      buildSnapshot(serverStatus('loading', { profileId: 'tiny', pid: 7, port: 8080, exe: 'llama-server' }), {
        generation: answeredAt(2000),
        gpu: gpuAt(3000),
      }),
    ],
    ['no answered request yet', buildSnapshot(READY, { generation: null, gpu: gpuAt(3000) })],
    ["a request answered before this launch (the last server's)", buildSnapshot(READY, { generation: answeredAt(500), gpu: gpuAt(3000) })],
    ['a GPU sample older than the answer', buildSnapshot(READY, { generation: answeredAt(2000), gpu: gpuAt(1500) })],
    ['no GPU reading', buildSnapshot(READY, { generation: answeredAt(2000), gpu: null })],
    ['a GPU without a name', buildSnapshot(READY, { generation: answeredAt(2000), gpu: gpuAt(3000, null) })],
  ])('does not measure with %s', (_what, snapshot) => {
    const { emit, measured } = setup()
    emit(snapshot)
    expect(measured).not.toHaveBeenCalled()
  })

  it('measures once per launch: the first teachable snapshot, then not again until the next launch', () => {
    const { emit, measured, launch } = setup()
    const teachable = buildSnapshot(READY, { generation: answeredAt(2000), gpu: gpuAt(3000) })
    emit(teachable)
    emit(teachable)
    expect(measured).toHaveBeenCalledTimes(1)
    launch(4000)
    emit(teachable) // the answer is the old launch's
    expect(measured).toHaveBeenCalledTimes(1)
    emit(buildSnapshot(READY, { generation: answeredAt(5000), gpu: gpuAt(5001) }))
    expect(measured).toHaveBeenCalledTimes(2)
  })
})
