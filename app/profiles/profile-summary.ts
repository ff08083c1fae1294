import { resolve } from 'node:path'
import type { ServerFork, ProfileDocument, ProfileStoreSummary, ProfileSummary } from '../contract/profile'
import { cachedForks } from './fork-detect'
import type { Profile } from './schema'
import type { ProfileStore } from './store'

export function profileSummary(p: Profile, activeId: string | null, engines: ReadonlyMap<string, ServerFork> = new Map()): ProfileSummary {
  const fork = p.binary === '' ? null : (engines.get(resolve(p.binary)) ?? null)
  return {
    id: p.id,
    name: p.name,
    binary: p.binary,
    model: p.model,
    draftModel: p.draftModel ?? null,
    fork,
    notes: p.notes,
    active: p.id === activeId,
    pinned: p.pinned === true,
    updatedAt: p.updatedAt,
  }
}

/** The list for views; engines come from the detection cache (a binary is never run just to list). */
export async function storeSummary(store: ProfileStore, home: string): Promise<ProfileStoreSummary> {
  const active = store.file.activeProfileId
  const engines = await cachedForks(home)
  return {
    health: store.health,
    messages: store.messages,
    activeProfileId: active,
    profiles: store.file.profiles.map((p) => profileSummary(p, active, engines)),
  }
}

/** The stored profile as plain data for the editor (argOrder is an import detail it does not need). */
export function profileDocument(p: Profile): ProfileDocument {
  const { argOrder: _argOrder, pinned: _pinned, ...doc } = p
  return doc
}
