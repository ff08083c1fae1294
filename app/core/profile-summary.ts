import type { ProfileDocument, ProfileStoreSummary, ProfileSummary } from '../contract/profile'
import type { Profile } from '../profiles/schema'
import type { ProfileStore } from '../profiles/store'

export function profileSummary(p: Profile, activeId: string | null): ProfileSummary {
  return { id: p.id, name: p.name, binary: p.binary, model: p.model, draftModel: p.draftModel ?? null, engine: null, notes: p.notes, active: p.id === activeId, updatedAt: p.updatedAt }
}

export function storeSummary(store: ProfileStore): ProfileStoreSummary {
  const active = store.file.activeProfileId
  return { health: store.health, messages: store.messages, activeProfileId: active, profiles: store.file.profiles.map((p) => profileSummary(p, active)) }
}

/** The stored profile as plain data for the editor (argOrder is an import detail it does not need). */
export function profileDocument(p: Profile): ProfileDocument {
  const { argOrder: _argOrder, ...doc } = p
  return doc
}
