import type { EngineUpdateCheck } from '../contract/engines'
import type { AppSettings } from '../contract/settings'
import { listInstalled } from './installed'
import type { ReleaseClient } from './release-client'
import { changeUpdateState, readUpdateState, type EngineUpdateState } from './update-state'

/** `newer`: a release newer than every installed engine exists (false when none is installed: there is nothing to update). */
export type UpdateCheck = EngineUpdateCheck

const DAY_MS = 24 * 60 * 60 * 1000

/** Whether the daily check is due: on in the settings and last run a day or more ago. */
export function dailyCheckDue(settings: Pick<AppSettings, 'engineUpdateCheck'>, state: EngineUpdateState, now: Date = new Date()): boolean {
  if (!settings.engineUpdateCheck) return false
  return state.lastCheckAt === null || now.getTime() - Date.parse(state.lastCheckAt) >= DAY_MS
}

/**
 * The latest release against the installed engines: newer when no installed engine has its tag and it was published after the newest of
 * them.
 */
async function againstInstalled(
  home: string,
  latest: { tag: string; publishedAt: string | null },
  checkedAt: string,
): Promise<UpdateCheck> {
  const installed = await listInstalled(home)
  const newest = [...installed].sort((a, b) => (b.publishedAt ?? '').localeCompare(a.publishedAt ?? ''))[0] ?? null
  const newer = newest !== null && !installed.some((e) => e.tag === latest.tag) && (latest.publishedAt ?? '') > (newest.publishedAt ?? '')
  return { latest: { tag: latest.tag, publishedAt: latest.publishedAt }, installed: newest?.tag ?? null, newer, checkedAt }
}

/** Asks GitHub for the latest release and compares it with the installed engines. Never downloads. */
export async function checkForUpdate(home: string, client: Pick<ReleaseClient, 'release'>, now: Date = new Date()): Promise<UpdateCheck> {
  const latest = await client.release()
  const checkedAt = now.toISOString()
  await changeUpdateState(home, (s) => {
    s.lastCheckAt = checkedAt
    s.latestTag = latest.tag
    s.latestPublishedAt = latest.publishedAt
  })
  return againstInstalled(home, latest, checkedAt)
}

/**
 * The dashboard's notice: null when the daily check is off; otherwise GitHub
 * is asked when the last check is a day old (a failure keeps what was known),
 * and the answer is compared with the installed engines. Null while nothing
 * is known or nothing is installed (then nothing is asked).
 */
export async function updateNotice(
  home: string,
  settings: Pick<AppSettings, 'engineUpdateCheck'>,
  client: Pick<ReleaseClient, 'release'>,
  now: Date = new Date(),
): Promise<UpdateCheck | null> {
  if (!settings.engineUpdateCheck) return null
  // Nothing installed here: nothing to update, so GitHub is not asked.
  if ((await listInstalled(home)).length === 0) return null
  const state = await readUpdateState(home)
  let check: UpdateCheck | null = null
  if (dailyCheckDue(settings, state, now)) check = await checkForUpdate(home, client, now).catch(() => null)
  if (!check && state.latestTag && state.lastCheckAt)
    check = await againstInstalled(home, { tag: state.latestTag, publishedAt: state.latestPublishedAt }, state.lastCheckAt)
  return check && check.installed !== null ? check : null
}
