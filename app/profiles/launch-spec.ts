import { serverSubcommand } from '../contract/server-binary'
import type { LaunchSpec } from '../contract/commands'
import { renderArgs } from './profile-args'
import type { Profile } from './schema'

/** What profileToLaunchSpec needs from a detected engine. */
export interface EngineFlags {
  readonly flags: ReadonlySet<string>
}

/**
 * The launch of a profile: its binary, its arguments in a stable order (as
 * pasted when imported), extra arguments untouched, and its environment.
 * With an engine, typed fields that were not pasted use a spelling it accepts.
 */
export function profileToLaunchSpec(profile: Profile, engine?: EngineFlags): LaunchSpec {
  const accepts = engine && engine.flags.size > 0 ? (flag: string) => engine.flags.has(flag) : undefined
  const env = Object.keys(profile.env).length > 0 ? { env: { ...profile.env } } : {}
  return { profileId: profile.id, exe: profile.binary, args: renderArgs(profile, accepts), ...env }
}

/** The whole command as an argument vector: [binary, ...args] (binary left out when not chosen yet). */
export function profileArgv(profile: Profile, engine?: EngineFlags): string[] {
  const spec = profileToLaunchSpec(profile, engine)
  return spec.exe === '' ? [...spec.args] : [spec.exe, ...serverSubcommand(spec.exe), ...spec.args]
}
