import { create } from 'zustand'
import type { AppSettings } from '../../../app/contract/settings'

interface SettingsState {
  readonly settings: AppSettings | null
}

export const useSettingsStore = create<SettingsState>()(() => ({ settings: null }))

export function receiveSettings(settings: AppSettings): void {
  useSettingsStore.setState({ settings })
}
