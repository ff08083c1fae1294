import type { LlamaTrayCore } from '../../../app/core/llama-tray-core'

/**
 * Sets the switch residency to 0 through the settings, as a user would: a test that switches profiles but does not
 * test the residency then switches at once instead of waiting the default 15 s (the residency is tested in
 * switch-policy.test.ts, switch-scheduler.test.ts, switch-scheduler.integration.test.ts and switch.e2e.test.ts).
 */
export async function switchAtOnce(core: LlamaTrayCore): Promise<void> {
  const set = await core.handlers['settings:set']({ switchMinResidencyS: 0 })
  if (!set.ok) throw new Error(set.error.sentence)
}
