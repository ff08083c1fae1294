import type { Result } from '../contract/commands'
import type { FitEstimate } from '../contract/fit'
import { blockingProblems } from '../profiles/flag-check'
import { ProfileLaunchError, resolveProfileLaunch } from '../profiles/resolve-launch'
import { withoutListenFlags } from '../supervisor/launch-args'
import { preflight } from '../supervisor/preflight'

const sentence = (text: string): string => {
  const trimmed = text.trim().replace(/[.;:\s]+$/, '')
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}.`
}

/**
 * Why a profile cannot start, found before the running server is stopped: the
 * profile and its engine, flags the binary rejects, the binary and model files
 * (the supervisor's own preflight), and a fit that says it does not fit. One
 * sentence, or null when nothing stands in the way.
 */
export async function switchRefusal(
  home: string,
  profileId: string,
  running: string,
  estimateFit: (id: string) => Promise<Result<FitEstimate>>,
): Promise<string | null> {
  const keeps = `so "${running}" keeps running`
  let resolved
  try {
    resolved = await resolveProfileLaunch(home, profileId)
  } catch (err) {
    if (!(err instanceof ProfileLaunchError)) throw err
    return sentence(`Profile "${profileId}" cannot start, ${keeps}: ${err.message}`)
  }
  const blocking = blockingProblems(resolved.problems)
  if (blocking.length > 0) {
    const flags = blocking.map((p) => `${p.flag} (${p.message})`).join(', ')
    return sentence(`Profile "${profileId}" uses flags that ${resolved.binaryInfo.fork} rejects, ${keeps}: fix ${flags} in the profile`)
  }
  const checked = await preflight({ exe: resolved.spec.exe, args: withoutListenFlags(resolved.spec.args), env: resolved.spec.env })
  if (!checked.ok) return sentence(`Profile "${profileId}" cannot start, ${keeps}: ${checked.failure.reason}; ${checked.failure.hint}`)
  const fit = await estimateFit(profileId)
  const report = fit.ok ? fit.value.report : null
  if (report?.fits === false && report.budgetMiB !== null) {
    return sentence(
      `Profile "${profileId}" does not fit the GPU's free memory (budget ${Math.round(report.budgetMiB)} MiB after the headroom), ` +
        `${keeps}: ` +
        `lower its GPU layers or context, or free GPU memory`,
    )
  }
  return null
}
