import { api } from '../stores/api'

/** Shows the dashboard window (main closes the popover). */
export function openDashboard(): Promise<void> {
  return api().dashboardOpen()
}
