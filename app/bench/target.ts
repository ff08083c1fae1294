import type { LaunchSpec } from '../contract/commands'
import type { BenchTarget } from '../contract/bench'
import type { ServerBinaryInfo } from '../profiles/fork-detect'
import { profileToLaunchSpec } from '../profiles/launch-spec'
import { baseName } from '../profiles/profile-id'
import { assertLaunchable, resolveProfileLaunch } from '../profiles/resolve-launch'
import type { Profile } from '../profiles/schema'
import { fieldSpellings, lastValue } from '../contract/flag-args'

/** A profile (or a tune variant of one) ready to launch and describe. */
export interface PreparedTarget {
  readonly profile: Profile
  readonly binaryInfo: ServerBinaryInfo
  readonly spec: LaunchSpec
  readonly target: BenchTarget
}

function describe(profile: Profile, binaryInfo: ServerBinaryInfo, spec: LaunchSpec, label: string): BenchTarget {
  const args = spec.args
  const k = lastValue(args, fieldSpellings('cacheTypeK')) ?? 'f16'
  const v = lastValue(args, fieldSpellings('cacheTypeV')) ?? 'f16'
  const ncmoe = lastValue(args, fieldSpellings('nCpuMoe'))
  const model = lastValue(args, fieldSpellings('model'))
  const draft = lastValue(args, fieldSpellings('draftModel'))
  const spec_ = lastValue(args, fieldSpellings('specType'))
  return {
    profileId: profile.id,
    profileName: profile.name,
    label,
    exe: spec.exe,
    args: [...args],
    fork: binaryInfo.fork,
    model: model ? baseName(model) : null,
    draftModel: draft ? baseName(draft) : spec_ && spec_ !== 'none' ? spec_ : null,
    kvCache: `${k}/${v}`,
    nCpuMoe: ncmoe !== null && /^\d+$/.test(ncmoe) ? Number(ncmoe) : null,
  }
}

/** A stored profile by id or name, checked against what its binary accepts (throws ProfileLaunchError). */
export async function prepareProfile(home: string, idOrName: string): Promise<PreparedTarget> {
  const resolved = await resolveProfileLaunch(home, idOrName)
  const spec = assertLaunchable(resolved)
  return {
    profile: resolved.profile,
    binaryInfo: resolved.binaryInfo,
    spec,
    target: describe(resolved.profile, resolved.binaryInfo, spec, resolved.profile.name),
  }
}

/** A changed copy of a prepared profile (a tune setting), launched under the same profile id. */
export function prepareVariant(base: PreparedTarget, profile: Profile, label: string): PreparedTarget {
  const spec = profileToLaunchSpec(profile, base.binaryInfo)
  return { profile, binaryInfo: base.binaryInfo, spec, target: describe(profile, base.binaryInfo, spec, label) }
}
