import { problem } from '../contract/problem'
import type { StartFailure } from '../contract/snapshot'
import { sentences } from '../contract/wording'
import type { FlagProblem } from '../profiles/flag-check'

/** What a refused start says: the profile, what its binary rejects, and the fix with its CLI name. */
export function startFailureOf(profileId: string, profileName: string, reason: string, problems: readonly FlagProblem[]): StartFailure {
  const named = `“${profileName}” did not start`
  if (problems.length === 0) return { profileId, problem: problem('profile', sentences(`${named}: ${reason}`)) }
  // Each problem's message already names the binary and the replacement ("mainline removed --no-mmap: use -lm none").
  const what = problems.map((p) => p.message).join('; ')
  const fixable = problems.every((p) => p.replacement !== null)
  if (!fixable)
    return {
      profileId,
      problem: problem('profile', sentences(`${named}: ${what}`, 'edit the profile, or choose a binary that accepts these flags')),
    }
  const added = problems.flatMap((p) => p.replacement ?? [])
  const label = added.length > 0 ? `Use ${added.join(' ')} and start` : `Remove ${problems.map((p) => p.flag).join(' ')} and start`
  const cli = `llama-tray profiles fix ${profileId}`
  return {
    profileId,
    problem: problem(
      'profile',
      sentences(`${named}: ${what}`, `the button below stores the replacement and starts it (the same as ${cli})`),
      { fix: { label, run: { command: 'profiles:apply-flag-fixes', profileId }, cli } },
    ),
  }
}
