import { create } from 'zustand'
import type { ProfileStoreSummary } from '../../../app/contract/profile'

interface ProfileState {
  readonly summary: ProfileStoreSummary | null
}

export const useProfileStore = create<ProfileState>()(() => ({ summary: null }))

export function receiveProfiles(summary: ProfileStoreSummary): void {
  useProfileStore.setState({ summary })
}
