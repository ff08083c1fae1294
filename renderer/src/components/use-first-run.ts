import { useEffect, useRef } from 'react'
import { launchInEffect } from '../../../app/contract/server-state'
import { lookForEngineAndModel } from '../actions/first-run-actions'
import { missingForFirstRun } from '../lib/first-run'
import { useFirstRunStore } from '../stores/first-run-store'
import { useProfileStore } from '../stores/profile-store'
import { useStatusStore } from '../stores/status-store'

/**
 * Whether the app should open on the first-run view: no profile, no server,
 * and discovery finds no llama-server or no usable model. Discovery runs once,
 * when the window first learns there are no profiles. `settled` says the
 * first-run view has nothing to do any more (a profile or a server appeared).
 */
export function useFirstRunWanted(): { readonly wanted: boolean; readonly settled: boolean } {
  const count = useProfileStore((s) => (s.summary ? s.summary.profiles.length : null))
  const state = useStatusStore((s) => s.status?.state ?? null)
  const found = useFirstRunStore((s) => s.found)
  const looked = useRef(false)
  const idle = state !== null && !launchInEffect(state)
  useEffect(() => {
    if (looked.current || count !== 0 || !idle) return
    looked.current = true
    void lookForEngineAndModel()
  }, [count, idle])
  const missing = found === null ? null : missingForFirstRun(found)
  return {
    wanted: count === 0 && idle && missing !== null && (missing.engine || missing.model),
    settled: (count ?? 0) > 0 || (state !== null && launchInEffect(state)),
  }
}
