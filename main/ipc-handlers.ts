import { z } from 'zod'
import type { LaunchSpec } from '../app/contract/commands'
import type { ServerSupervisor } from '../app/supervisor/supervisor'
import { handle } from './ipc-main'

/** Turns a profile id into what to launch; the profile store provides it. */
export type ProfileResolver = (profileId: string) => Promise<LaunchSpec | null>

export function registerIpcHandlers(supervisor: ServerSupervisor, resolveProfile: ProfileResolver): void {
  handle('server:start', z.tuple([z.string().min(1).max(200)]), async (profileId) => {
    const spec = await resolveProfile(profileId)
    if (!spec) return { ok: false as const, error: `unknown profile "${profileId}"` }
    return { ok: true as const, value: await supervisor.start(spec) }
  })
  handle('server:stop', z.tuple([]), () => supervisor.stop())
  handle('server:restart', z.tuple([]), async () => {
    try {
      return { ok: true as const, value: await supervisor.restart() }
    } catch (err) {
      return { ok: false as const, error: (err as Error).message }
    }
  })
  handle('server:status', z.tuple([]), async () => supervisor.getStatus())
  handle('server:logs', z.tuple([z.number().int().min(1).max(10_000)]), async (max) => supervisor.getLogs(max))
}
