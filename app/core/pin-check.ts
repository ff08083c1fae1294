import { join } from 'node:path'
import type { GpuDevice } from '../contract/telemetry'
import { GpuRuntimeStore } from '../fit/runtime-store'
import { SettingsStore } from '../settings/settings-store'
import { FitError } from '../fit/fit-error'
import { fitProfile } from '../profiles/profile-fit'
import { ProfileStore } from '../profiles/store'
import { runningProfileIds } from '../supervisor/pid-file'

/** The GPU as a pin is checked against. */
export interface PinBudget {
  /** Free GPU memory now, as read; null without a GPU reading (then nothing is checked). */
  readonly freeNowMiB: number | null
  readonly headroomMiB: number
  /** The CUDA runtime learned for this GPU model, else null (the fit's default). */
  readonly runtimeMiB: number | null
}

const gib = (mib: number): string => `${(Math.max(0, mib) / 1024).toFixed(1)} GiB`

/**
 * What a profile's server will hold on the GPU (the same estimate as the switch check's fit); 0 when it cannot be
 * estimated (no local model file to read, e.g. a -hf profile): such a profile is not held against a pin.
 */
async function gpuMiB(home: string, profileId: string, budget: PinBudget): Promise<number> {
  try {
    const report = await fitProfile(home, profileId, { freeVramMiB: null, headroomMiB: budget.headroomMiB, runtimeMiB: budget.runtimeMiB })
    return report.gpuProcessMiB
  } catch (err) {
    if (err instanceof FitError) return 0
    throw err
  }
}

/**
 * Why `profileId` cannot be pinned, or null when it can: the active profile and every pinned one, this one included,
 * must fit the GPU's free memory less the headroom together. The free memory counts our own running servers as free
 * (their estimates are added back), since they are part of the sum.
 */
export async function pinRefusal(home: string, profileId: string, readBudget: () => Promise<PinBudget>): Promise<string | null> {
  const store = await ProfileStore.open(home)
  const profile = store.find(profileId)
  if (!profile) return `There is no profile "${profileId}"; pin one of those llama-tray profiles list shows.`
  const active = store.file.activeProfileId
  if (profile.id === active)
    return `Profile "${profile.id}" is the active profile, so it runs already; pin another profile, or make another one active first.`
  // Read only now: an unknown or active profile is refused without waiting for the GPU.
  const budget = await readBudget()
  if (budget.freeNowMiB === null) return null
  const beside = [
    ...new Set([...(active === null ? [] : [active]), ...store.file.profiles.filter((p) => p.pinned).map((p) => p.id)]),
  ].filter((id) => id !== profile.id)
  const running = new Set(await runningProfileIds(join(home, 'run')))
  let freeMiB = budget.freeNowMiB - budget.headroomMiB
  for (const id of running) freeMiB += await gpuMiB(home, id, budget)
  for (const id of beside) freeMiB -= await gpuMiB(home, id, budget)
  const needs = await gpuMiB(home, profile.id, budget)
  if (needs <= freeMiB) return null
  const others = beside.length === 0 ? 'the headroom' : beside.join(' and ')
  return (
    `Pinning ${profile.id} needs ${Math.ceil(needs - Math.max(0, freeMiB))} MiB more than the ${gib(freeMiB)} free beside ${others}; ` +
    'unpin another profile or lower -ngl.'
  )
}

/** The budget from one GPU reading (its first device), the settings' headroom and the runtime learned for that GPU model. */
export async function pinBudget(home: string, device: GpuDevice | null): Promise<PinBudget> {
  const settings = await SettingsStore.open(home)
  const runtimes = await GpuRuntimeStore.open(home)
  return {
    freeNowMiB: device?.memoryFreeMiB ?? null,
    headroomMiB: settings.settings.vramHeadroomMiB,
    runtimeMiB: device?.name == null ? null : runtimes.runtimeMiB(device.name),
  }
}
