import type { MenuItemConstructorOptions } from 'electron'
import { sleepingDetail } from '../app/contract/server-state'
import type { PendingSwitch } from '../app/contract/snapshot'
import type { Warning } from '../app/contract/warnings'
import { clip, isRunning, profileName, stateLabel, type TrayView } from './tray-view'

export interface TrayActions {
  /** Starts a profile (a switch when another one runs). */
  readonly start: (profileId: string) => void
  readonly stop: () => void
  readonly restart: () => void
  /** Pins a profile (its own server beside the active one) or unpins it. */
  readonly setPinned: (profileId: string, pinned: boolean) => void
  /** The waiting switch happens at once; its running requests end with an error naming it. */
  readonly switchNow: () => void
  readonly openDashboard: () => void
  readonly openLogsFolder: () => void
  readonly quit: () => void
}

/** The profile the radio group shows as chosen: the running one, else the store's active profile. */
export function selectedProfileId(view: TrayView): string | null {
  if (view.status.state !== 'stopped' && view.status.profileId !== null) return view.status.profileId
  return view.activeProfileId
}

/** The profile and what its server is doing: "Qwen3 30B: Ready on port 8081", "Qwen3 30B: Stopped". */
function header(view: TrayView): string {
  const name = profileName(view, selectedProfileId(view))
  const port = view.endpointPort ?? view.status.port
  const state =
    (view.status.state === 'ready' || view.status.state === 'sleeping') && port !== null
      ? `${stateLabel(view.status.state)} on port ${port}`
      : stateLabel(view.status.state)
  return name ? `${menuText(name, 48)}: ${state}` : `Server: ${state}`
}

/** The warning the menu shows: the first error, else the first warning (info is left to the dashboard). */
export function currentWarning(view: Pick<TrayView, 'warnings'>): Warning | null {
  return view.warnings.find((w) => w.level === 'error') ?? view.warnings.find((w) => w.level === 'warn') ?? null
}

/** Menu labels on Windows and Linux read "&" as a mnemonic marker: "&&" shows one. */
function menuText(text: string, max: number): string {
  return clip(text.replace(/\s+/g, ' ').trim(), max).replace(/&/g, '&&')
}

const WARNING_ITEM = 'warning:'
const PENDING_ITEM = 'pending:'

/** "Switching to GPT-OSS 20B after 1 running request, about 20 s.": the profile's name and the scheduler's estimate. */
function pendingLabel(view: TrayView, pending: PendingSwitch): string {
  const when = pending.when ?? `Within ${pending.withinS} s.`
  const phrase = when === 'Now.' ? 'now.' : `${when.charAt(0).toLowerCase()}${when.slice(1)}`
  return `Switching to ${profileName(view, pending.profileId) ?? pending.profileId} ${phrase}`
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** The tray menu for one view (pure; rebuilt when the view's menu-relevant parts change). */
export function buildTrayTemplate(view: TrayView, actions: TrayActions): MenuItemConstructorOptions[] {
  const state = view.status.state
  const pending = view.pendingSwitch ?? null
  const selected = selectedProfileId(view)
  const startable = selected !== null && view.profiles.some((p) => p.id === selected) ? selected : null

  // Start when nothing runs; Stop and Restart while a server runs (or is about to); nothing to do while stopping.
  const startStop: MenuItemConstructorOptions[] = isRunning(state)
    ? [
        { id: 'stop', label: 'Stop server', enabled: true, click: () => actions.stop() },
        { id: 'restart', label: 'Restart server', enabled: true, click: () => actions.restart() },
      ]
    : state === 'stopping'
      ? [{ id: 'stop', label: 'Stopping…', enabled: false }]
      : startable
        ? [
            {
              id: 'start',
              label: `Start ${menuText(profileName(view, startable) ?? startable, 48)}`,
              enabled: true,
              click: () => actions.start(startable),
            },
          ]
        : [{ id: 'start', label: 'Start server', enabled: false }]

  const warning = currentWarning(view)
  const warningItems: MenuItemConstructorOptions[] = warning
    ? [{ id: `${WARNING_ITEM}${warning.id}`, label: `⚠ ${menuText(warning.headline, 90)}`, click: () => actions.openDashboard() }]
    : []

  const profiles: MenuItemConstructorOptions[] =
    view.profiles.length === 0
      ? [{ id: 'no-profiles', label: 'No profiles yet: add one in the dashboard', enabled: false }]
      : view.profiles.map((p) => ({
          id: `profile:${p.id}`,
          // A pinned profile's click routes to its own server: the active one stays.
          label: `${menuText(p.name, 60)}${p.pinned ? ' (pinned)' : ''}`,
          type: 'radio' as const,
          checked: p.id === selected,
          enabled: state !== 'stopping',
          click: () => {
            // Clicking the profile that already runs does nothing, unless a switch waits: then it withdraws that
            // switch (the last choice wins). Any other click starts or switches, through the same scheduler.
            if (p.id === view.status.profileId && isRunning(state) && !pending) return
            actions.start(p.id)
          },
        }))

  // One toggle per profile other than the chosen one (that one runs as the active server already).
  const pinnable = view.profiles.filter((p) => p.id !== selected)
  const pins: MenuItemConstructorOptions[] =
    pinnable.length === 0
      ? []
      : [
          {
            id: 'pins',
            label: 'Pin beside the active profile',
            submenu: pinnable.map((p) => ({
              id: `pin:${p.id}`,
              label: menuText(p.name, 60),
              type: 'checkbox' as const,
              checked: p.pinned,
              click: () => actions.setPinned(p.id, !p.pinned),
            })),
          },
        ]

  // The scheduler's waiting switch: when (its sentence as the menu was built), "Switch now", and "Keep" the running
  // profile (withdraws it, as a click on that profile's radio does). Keyed by its target and running requests, not its
  // seconds, so that the countdown does not replace the menu under the user.
  const pendingItems: MenuItemConstructorOptions[] = pending
    ? [
        {
          id: `pending:${pending.profileId}:${pending.runningRequests}`,
          label: menuText(pendingLabel(view, pending), 120),
          enabled: false,
        },
        { id: 'switch-now', label: 'Switch now', click: () => actions.switchNow() },
        {
          id: 'keep-running',
          label: menuText(`Keep ${profileName(view, pending.fromProfileId) ?? pending.fromProfileId}`, 80),
          click: () => actions.start(pending.fromProfileId),
        },
      ]
    : []

  return [
    { id: 'status', label: header(view), enabled: false },
    ...(state === 'sleeping' ? [{ id: 'sleeping', label: capitalised(sleepingDetail(view.status.sleepIdleSeconds)), enabled: false }] : []),
    ...warningItems,
    ...pendingItems,
    { type: 'separator' },
    ...startStop,
    { type: 'separator' },
    ...profiles,
    ...pins,
    { type: 'separator' },
    { id: 'dashboard', label: 'Open dashboard', click: () => actions.openDashboard() },
    { id: 'logs', label: 'Open logs folder', click: () => actions.openLogsFolder() },
    { type: 'separator' },
    { id: 'quit', label: 'Quit Llama Tray', click: () => actions.quit() },
  ]
}

/**
 * What the menu looks like, without its callbacks: equal keys mean the open menu
 * need not be replaced. A warning counts by its id, not its text: live warnings
 * reword their figures every second, and replacing the menu closes it under the user; a
 * waiting switch likewise counts by its target and running requests, not its seconds.
 */
export function templateKey(template: readonly MenuItemConstructorOptions[]): string {
  return JSON.stringify(itemKeys(template))
}

function itemKeys(template: readonly MenuItemConstructorOptions[]): unknown[] {
  return template.map((i) => [
    i.id ?? null,
    i.type ?? 'normal',
    i.id?.startsWith(WARNING_ITEM) || i.id?.startsWith(PENDING_ITEM) ? null : (i.label ?? null),
    i.enabled ?? true,
    i.checked ?? null,
    Array.isArray(i.submenu) ? itemKeys(i.submenu) : null,
  ])
}
