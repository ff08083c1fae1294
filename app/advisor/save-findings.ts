import type { Warning } from '../contract/warnings'
import type { ServerBinaryInfo } from '../profiles/fork-detect'
import type { GateFinding } from '../profiles/profile-gate'
import type { Profile } from '../profiles/schema'
import { gatherProfileInput } from './lint-sources'
import { lintArgs } from './rules'

/**
 * The advisor's part of the gate: the lint `llama-tray lint <profile>` runs, on the profile as it will be stored, with the
 * engine the gate already detected. Info-level findings are left out (they live in the profile's advisor list).
 */
export async function adviseOnSave(home: string, profile: Profile, engine: ServerBinaryInfo | null): Promise<readonly GateFinding[]> {
  const { input } = await gatherProfileInput(home, profile, engine ? { detect: async () => engine } : {})
  return lintArgs(input)
    .filter((f) => f.level !== 'info')
    .map((f) => ({ id: f.id, rule: f.rule, level: f.level, headline: f.headline, reason: f.reason, fix: f.fix }))
}

/**
 * The findings of a save as the warnings the dashboard shows beside Save: their ids are those the live advisor gives the same
 * findings (`<finding>@<profile>`), so warnings:apply-fix applies their fixes; muted ones are left out.
 */
export function savedWarnings(profileId: string, findings: readonly GateFinding[], muted: readonly string[] = []): Warning[] {
  return findings
    .filter((f) => !muted.includes(f.id) && !(f.rule !== undefined && muted.includes(f.rule)))
    .map((f) => ({
      id: `${f.id}@${profileId}`,
      level: f.level,
      headline: f.headline,
      reason: f.reason,
      fix: f.fix ?? null,
      ...(f.rule !== undefined ? { rule: f.rule } : {}),
      source: 'lint',
      profileId,
    }))
}
