import type { AppSettings } from '../contract/settings'
import { AdmissionError, type EndpointBackend } from '../endpoint/backend'
import { resolveApiKey } from '../metrics'
import { ProfileStore } from '../profiles/store'
import type { ServerSupervisor } from '../supervisor/supervisor'
import type { PinnedServers } from './pinned-servers'
import type { SwitchScheduler } from './switch-scheduler'

/** The endpoint's view of the core: the supervisor, the profile store, the settings, and the core's switch scheduler. */
export function endpointBackend(
  home: string,
  supervisor: ServerSupervisor,
  settings: () => AppSettings,
  scheduler: SwitchScheduler,
  pinned: PinnedServers,
  /** Why requests are refused now (onGame stop while a game holds the GPU); null when they are served. */
  refusal: () => string | null = () => null,
  energyJ: (fromMs: number, toMs: number) => number | null = () => null,
): EndpointBackend {
  let keyFor: { spec: unknown; key: Promise<string | null> } | null = null
  const pinnedKeys = new WeakMap<object, Promise<string | null>>()
  return {
    status: () => supervisor.getStatus(),
    onState: (listener) => supervisor.on('state', listener),
    profiles: async () => {
      const store = await ProfileStore.open(home)
      return {
        profiles: store.file.profiles.map((p) => ({ id: p.id, name: p.name, pinned: p.pinned === true })),
        activeProfileId: store.file.activeProfileId,
      }
    },
    acquire: (profileId, signal) => {
      const refused = refusal()
      return refused === null ? scheduler.acquire(profileId, signal) : Promise.reject(new AdmissionError(refused, 'profile_refused'))
    },
    switchingTo: () => scheduler.switchingTo(),
    upstreamApiKey: () => {
      const spec = supervisor.getLaunchSpec()
      if (!spec) return Promise.resolve(null)
      // Read once per launch: --api-key-file is a file read.
      if (keyFor?.spec !== spec) keyFor = { spec, key: resolveApiKey(spec.args, spec.env ?? {}).catch(() => null) }
      return keyFor.key
    },
    pinned: (profileId) => {
      const server = pinned.supervisorOf(profileId)
      if (!server) return null
      return {
        status: () => server.getStatus(),
        onState: (listener) => server.on('state', listener),
        refusal: () => pinned.refusalOf(profileId),
        upstreamApiKey: () => {
          const spec = server.getLaunchSpec()
          if (!spec) return Promise.resolve(null)
          let key = pinnedKeys.get(spec)
          if (!key) pinnedKeys.set(spec, (key = resolveApiKey(spec.args, spec.env ?? {}).catch(() => null)))
          return key
        },
      }
    },
    settings: () => settings(),
    energyJ,
    control: {
      request: (profileId) => scheduler.request(profileId),
      pending: () => scheduler.pending(),
      switchingTo: () => scheduler.switchingTo(),
      status: () => supervisor.getStatus(),
    },
  }
}
