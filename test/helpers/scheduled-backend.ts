import { SwitchScheduler } from '../../app/core/switch-scheduler'
import { FakeBackend } from '../support/endpoint/fake-backend'

/**
 * The endpoint's in-process fake backend with the core's real switch scheduler
 * deciding when it switches: no residency (a test switches at once), no check
 * before a switch (the fake profiles always resolve).
 */
export function scheduledBackend(profileIds: readonly string[], timing = { switchMinResidencyS: 0, switchDrainS: 60 }): FakeBackend {
  const backend = new FakeBackend(profileIds)
  backend.scheduler = new SwitchScheduler({
    status: () => backend.status(),
    onState: (listener) => backend.onState(listener),
    check: async () => null,
    load: (id) => backend.switchTo(id),
    settings: () => timing,
  })
  return backend
}
