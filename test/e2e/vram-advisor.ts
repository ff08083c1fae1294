import { problem } from '../../app/contract/problem'
import type { Result } from '../../app/contract/commands'
import type { ProfileSummary } from '../../app/contract/profile'
import type { AppSettings } from '../../app/contract/settings'
import type { Snapshot } from '../../app/contract/snapshot'
import type { Warning } from '../../app/contract/warnings'
import type { LlamaTrayCore } from '../../app/core/llama-tray-core'

export const LOW_VRAM_WARNING = 'vram-headroom'

/**
 * A stand-in for the advisor (written in another issue), just enough for the
 * dashboard test: free VRAM under the headroom setting raises a warning whose
 * fix moves 4 more expert layers to the CPU in the running profile, applied
 * through the real profiles:update handler.
 */
export function vramAdvisor(
  getCore: () => LlamaTrayCore,
  startNCpuMoe: number,
): {
  warnings: (s: Omit<Snapshot, 'warnings'>, settings: AppSettings) => readonly Warning[]
  applyWarningFix: (id: string) => Promise<Result<ProfileSummary>>
} {
  let nCpuMoe = startNCpuMoe
  let profileId: string | null = null
  return {
    warnings: (s, settings) => {
      const free = s.gpu?.devices[0]?.memoryFreeMiB ?? null
      if (free === null || free >= settings.vramHeadroomMiB || !s.server.profileId) return []
      profileId = s.server.profileId
      const next = nCpuMoe + 4
      return [
        {
          id: LOW_VRAM_WARNING,
          level: 'warn',
          headline: `Only ${free} MiB of VRAM free, under the ${settings.vramHeadroomMiB} MiB headroom.`,
          reason: 'The driver may spill into system RAM, and generation slows down several times.',
          fix: { label: `Use --n-cpu-moe ${next}`, removeArgs: ['--n-cpu-moe'], addArgs: ['--n-cpu-moe', String(next)] },
        },
      ]
    },
    applyWarningFix: async (id) => {
      if (id !== LOW_VRAM_WARNING || !profileId) return { ok: false, error: problem('profile', `no fix for ${id}`) }
      const core = getCore()
      const doc = await core.handlers['profiles:get'](profileId)
      if (!doc) return { ok: false, error: problem('profile', `no profile ${profileId}`) }
      const next = (doc.settings.nCpuMoe ?? 0) + 4
      nCpuMoe = next
      return core.handlers['profiles:update'](profileId, { settings: { ...doc.settings, nCpuMoe: next } })
    },
  }
}
