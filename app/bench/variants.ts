import type { Profile } from '../profiles/schema'

/** Draft-only flags that may sit in a profile's untouched extra arguments. */
const DRAFT_FLAG = new RegExp(
  String.raw`^(?:-md|--model-draft|-ngld|--gpu-layers-draft|--n-gpu-layers-draft|-cd|--ctx-size-draft` +
    String.raw`|-ctkd|--cache-type-k-draft|-ctvd|--cache-type-v-draft|-devd|--device-draft|-td` +
    String.raw`|--threads-draft|-tbd|--threads-batch-draft|--spec-type|--spec-replace|--draft[-a-z]*)$`,
)
/** Whether a profile decodes speculatively (a draft model, or an MTP/ngram --spec-type). */
export function hasDraft(profile: Profile): boolean {
  return (
    profile.draftModel !== undefined ||
    profile.settings.specType !== undefined ||
    profile.extraArgs.some((a) => DRAFT_FLAG.test(a.split('=')[0] as string))
  )
}

function withoutDraftExtras(extra: readonly string[]): string[] {
  const out: string[] = []
  for (let i = 0; i < extra.length; i++) {
    const a = extra[i] as string
    const flag = a.split('=')[0] as string
    if (!DRAFT_FLAG.test(flag)) {
      out.push(a)
      continue
    }
    const next = extra[i + 1]
    if (!a.includes('=') && next !== undefined && !/^-[A-Za-z-]/.test(next)) i++ // its value
  }
  return out
}

/** The profile without speculative decoding: no draft model, no --spec-type, no draft options. */
export function withoutDraft(profile: Profile): Profile {
  const { draftModel: _model, ...rest } = profile
  const { specType: _s, draftGpuLayers: _g, draftMax: _x, draftMin: _n, ...settings } = profile.settings
  const extraArgs = withoutDraftExtras(profile.extraArgs)
  // The recorded argument order counts extra arguments: drop it when extras were removed.
  const argOrder = extraArgs.length === profile.extraArgs.length ? profile.argOrder : undefined
  const { argOrder: _o, ...base } = rest
  return { ...base, settings, extraArgs, ...(argOrder ? { argOrder } : {}) }
}

/** The profile with N layers' experts on the CPU (replacing --cpu-moe and -ncmoe extras). */
export function withNCpuMoe(profile: Profile, n: number): Profile {
  const { cpuMoe: _c, ...settings } = profile.settings
  const extra: string[] = []
  let removed = false
  for (let i = 0; i < profile.extraArgs.length; i++) {
    const a = profile.extraArgs[i] as string
    if (a === '-cmoe' || a === '--cpu-moe') {
      removed = true
      continue
    }
    if (a === '-ncmoe' || a === '--n-cpu-moe') {
      removed = true
      i++
      continue
    }
    if (/^(?:-ncmoe|--n-cpu-moe)=/.test(a)) {
      removed = true
      continue
    }
    extra.push(a)
  }
  const { argOrder, ...rest } = profile
  return { ...rest, settings: { ...settings, nCpuMoe: n }, extraArgs: extra, ...(argOrder && !removed ? { argOrder } : {}) }
}
