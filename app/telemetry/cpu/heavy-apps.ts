import { z } from 'zod'
import type { JsonCodec } from '../../lib/json-store/json-codec'
import type { Peeked } from '../../lib/json-store/json-store'
import { openJsonStore } from '../../lib/json-store/registry'
import { BUILT_IN_HEAVY_APPS, type HeavyApp } from '../../contract/heavy-apps'
import type { HeavyAppSnapshot } from '../../contract/telemetry'
import { normalizeImageName, type ProcessInfo } from '../../platform/process-source'

export type { HeavyApp }

export interface HeavyAppList {
  readonly apps: readonly HeavyApp[]
  /** Count Wine/Proton programs (Linux processes named "*.exe") as a game. */
  readonly detectWineGames: boolean
}

/**
 * The built-in list (app/contract/heavy-apps.ts, which the Settings view shows); users override it with heavy-apps.json in the home folder.
 */
export const DEFAULT_HEAVY_APPS: HeavyAppList = { detectWineGames: true, apps: BUILT_IN_HEAVY_APPS }

const HeavyAppListSchema = z.object({
  detectWineGames: z.boolean().default(true),
  apps: z.array(z.object({ name: z.string().min(1), processes: z.array(z.string().min(1)).min(1) })),
})

export interface LoadedHeavyApps {
  readonly list: HeavyAppList
  /** Why the user's file was not used (the built-in list is); null when it was, or when there is none. */
  readonly problem: string | null
}

/** heavy-apps.json: no version (it is the user's to edit); checked by HeavyAppListSchema. */
const heavyAppsCodec: JsonCodec<HeavyAppList> = {
  decode(json) {
    const parsed = HeavyAppListSchema.safeParse(json)
    if (parsed.success) return { kind: 'ok', value: parsed.data, notices: [] }
    const issue = parsed.error.issues[0]
    return {
      kind: 'invalid',
      reason:
        `${issue ? `${issue.path.join('.') || '(top)'}: ${issue.message}` : 'invalid'}; expected ` +
        `{"apps":[{"name":"Discord","processes":["Discord.exe"]}]}`,
    }
  },
  encode: (list) => HeavyAppListSchema.parse(list),
}

/**
 * Reads the user's list through its store, never repairing it (the file is the user's own): a
 * missing file means the built-in list, a bad one is reported and never used half-way.
 */
export function loadHeavyAppList(file: string): LoadedHeavyApps {
  const store = openJsonStore({ path: file, label: 'heavy-app list', codec: heavyAppsCodec, defaults: () => DEFAULT_HEAVY_APPS })
  let peeked: Peeked<HeavyAppList>
  try {
    peeked = store.peekSync()
  } catch (err) {
    return { list: DEFAULT_HEAVY_APPS, problem: `${(err as Error).message.replace(/\.$/, '')}; using the built-in list` }
  }
  if (peeked.kind === 'missing') return { list: DEFAULT_HEAVY_APPS, problem: null }
  if (peeked.kind === 'invalid') return { list: DEFAULT_HEAVY_APPS, problem: `${file}: ${peeked.reason}; using the built-in list` }
  return { list: peeked.value, problem: null }
}

/**
 * The heavy apps running now, each with its processes' summed CPU share
 * (null when no process of it has a share yet), busiest first. `exclude`
 * holds our own processes (the supervised llama-server).
 */
export function matchHeavyApps(
  processes: readonly ProcessInfo[],
  shares: ReadonlyMap<number, number | null>,
  list: HeavyAppList,
  platform: NodeJS.Platform = process.platform,
  exclude: ReadonlySet<number> = new Set(),
): HeavyAppSnapshot[] {
  const byImage = new Map<string, string>()
  for (const app of list.apps) {
    for (const p of app.processes) {
      byImage.set(normalizeImageName(p), app.name)
      // Linux reports at most 15 characters of a process name (comm).
      if (platform === 'linux') byImage.set(normalizeImageName(p).slice(0, 15), app.name)
    }
  }
  const found = new Map<string, { pids: number[]; cpu: number | null }>()
  for (const p of processes) {
    if (exclude.has(p.pid)) continue
    let app = byImage.get(normalizeImageName(p.name))
    if (!app && list.detectWineGames && /\.exe$/i.test(p.name) && platform !== 'win32') app = 'Game (Wine/Proton)'
    if (!app) continue
    const entry = found.get(app) ?? { pids: [], cpu: null }
    entry.pids.push(p.pid)
    const share = shares.get(p.pid)
    if (typeof share === 'number') entry.cpu = (entry.cpu ?? 0) + share
    found.set(app, entry)
  }
  return [...found.entries()]
    .map(([name, e]) => ({ name, pids: e.pids.sort((a, b) => a - b), cpuPct: e.cpu }))
    .sort((a, b) => (b.cpuPct ?? -1) - (a.cpuPct ?? -1) || a.name.localeCompare(b.name))
}

/** The list plus extra process names from the settings, each counted as an app of its own name. */
export function withExtraHeavyApps(list: HeavyAppList, extraProcessNames: readonly string[]): HeavyAppList {
  const known = new Set(list.apps.flatMap((a) => a.processes.map(normalizeImageName)))
  const extra = extraProcessNames
    .filter((n) => n.trim() !== '' && !known.has(normalizeImageName(n)))
    .map((n) => ({ name: n.trim(), processes: [n.trim()] }))
  return extra.length === 0 ? list : { ...list, apps: [...list.apps, ...extra] }
}
