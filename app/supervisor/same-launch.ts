import type { LaunchSpec } from '../contract/commands'

/**
 * Whether two launch specs start the same server: same profile, binary, arguments in order, and the same
 * environment whatever its key order (an absent env and an empty one are the same).
 */
export function sameLaunchSpec(a: LaunchSpec, b: LaunchSpec): boolean {
  if (a.profileId !== b.profileId || a.exe !== b.exe) return false
  if (a.args.length !== b.args.length || a.args.some((arg, i) => arg !== b.args[i])) return false
  const envA = Object.entries(a.env ?? {})
  const envB = b.env ?? {}
  return envA.length === Object.keys(envB).length && envA.every(([key, value]) => Object.hasOwn(envB, key) && envB[key] === value)
}
