import type { Result } from '../../../app/contract/commands'
import type { ProblemFixCommand } from '../../../app/contract/problem'
import { api } from '../stores/api'

/** Runs a problem's fix (the button ProblemView shows): the command it names, through main like every other. */
export async function runProblemFix(fix: ProblemFixCommand): Promise<Result<unknown>> {
  switch (fix.command) {
    case 'profiles:apply-flag-fixes':
      return api().profilesApplyFlagFixes(fix.profileId)
    case 'server:stop':
      return { ok: true, value: await api().serverStop() }
    case 'profiles:discover':
      return api().profilesDiscover()
  }
}
