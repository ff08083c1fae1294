import type { Result } from '../../../app/contract/commands'
import type { ProblemFixCommand } from '../../../app/contract/problem'
import { api } from '../stores/api'

/**
 * Runs a problem's fix (the button ProblemView shows): the command it names, through main like every other. A file
 * fix belongs to a start that failed on that file, so once the profile points at a file, it starts again.
 */
export async function runProblemFix(fix: ProblemFixCommand): Promise<Result<unknown>> {
  switch (fix.command) {
    case 'profiles:apply-flag-fixes':
      return api().profilesApplyFlagFixes(fix.profileId)
    case 'server:stop':
      return { ok: true, value: await api().serverStop() }
    case 'profiles:discover':
      return api().profilesDiscover()
    case 'profiles:choose-file': {
      const chosen = await api().profilesChooseFile(fix.profileId, fix.role)
      if (!chosen.ok || chosen.value === null) return chosen
      return api().serverStart(fix.profileId)
    }
    case 'profiles:use-file': {
      const saved = await api().profilesUpdate(fix.profileId, fix.role === 'model' ? { model: fix.path } : { draftModel: fix.path })
      if (!saved.ok) return saved
      return api().serverStart(fix.profileId)
    }
  }
}
