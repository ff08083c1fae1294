import type { LaunchSpec } from '../contract/commands'
import { MAX_ARGUMENTS } from '../lib/command-line'
import { detectFork, type ServerBinaryInfo } from './fork-detect'
import { basename } from 'node:path'
import { applyFixes, blockingProblems, checkFlags, forkAndVersion, type FlagProblem } from './flag-check'
import { profileToLaunchSpec } from './launch-spec'
import type { Profile } from './schema'
import { ProfileStore } from './store'
import { problem, type Problem, type ProblemFix } from '../contract/problem'

export class ProfileLaunchError extends Error {
  constructor(
    message: string,
    readonly problems: readonly FlagProblem[] = [],
    /** The binary's path (said in the details, never in the sentence) and the one-step fix, where there is one. */
    readonly extra: { readonly binary?: string; readonly fix?: ProblemFix } = {},
  ) {
    super(message)
    this.name = 'ProfileLaunchError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    const details = [...(this.extra.binary ? [`binary: ${this.extra.binary}`] : []), ...this.problems.map((p) => `${p.flag}: ${p.message}`)]
    return problem('profile', this.message, { details: details.join('\n'), fix: this.extra.fix ?? null })
  }
}

export interface ResolvedLaunch {
  readonly profile: Profile
  readonly binaryInfo: ServerBinaryInfo
  readonly spec: LaunchSpec
  /** Every problem; see blockingProblems for those that must stop a launch. */
  readonly problems: FlagProblem[]
}

async function loadProfile(home: string, idOrName: string): Promise<{ store: ProfileStore; profile: Profile }> {
  const store = await ProfileStore.open(home)
  const profile = store.find(idOrName)
  if (!profile) {
    const known = store.file.profiles.map((p) => p.id)
    throw new ProfileLaunchError(
      `No profile "${idOrName}"${known.length ? ` (known: ${known.join(', ')})` : ' (none yet: llama-tray profiles import -- <command>)'}.`,
    )
  }
  if (profile.extraArgs.length > MAX_ARGUMENTS) {
    throw new ProfileLaunchError(
      `Profile "${profile.id}" has ${profile.extraArgs.length.toLocaleString('en-US')} arguments, more than the ` +
        `${MAX_ARGUMENTS.toLocaleString('en-US')} ` +
        `a llama-server command can have: import its command again (llama-tray profiles import).`,
    )
  }
  if (profile.binary === '')
    throw new ProfileLaunchError(
      `profile "${profile.id}" has no llama-server binary yet: set one (llama-tray profiles import --name … -- /path/to/llama-server …)`,
    )
  return { store, profile }
}

/** The launch of a stored profile (by id or name), checked against what its binary accepts. */
export async function resolveProfileLaunch(home: string, idOrName: string): Promise<ResolvedLaunch> {
  const { profile } = await loadProfile(home, idOrName)
  const binaryInfo = await detectFork(home, profile.binary).catch((err: Error) => {
    throw new ProfileLaunchError(err.message)
  })
  return { profile, binaryInfo, spec: profileToLaunchSpec(profile, binaryInfo), problems: checkFlags(profile, binaryInfo) }
}

/** One line per problem, naming the replacement. */
export function describeProblems(problems: readonly FlagProblem[]): string {
  return problems
    .map(
      (p) =>
        `  ${p.flag}: ` +
        `${p.message}${p.replacement && p.replacement.length > 0 ? ` (replace with: ${p.replacement.join(' ')})` : p.replacement ? ' (remove it)' : ''}`,
    )
    .join('\n')
}

/**
 * Refuses a launch that would die with "invalid argument" (or an unsupported value): one sentence naming the engine
 * (its file name, fork and version: never its path) and what it rejects, the fix when every flag has a replacement
 * (`llama-tray profiles fix <id>`), and the binary's path with each flag's message in the details. Returns the spec otherwise.
 */
export function assertLaunchable(resolved: ResolvedLaunch): LaunchSpec {
  const blocking = blockingProblems(resolved.problems)
  if (blocking.length === 0) return resolved.spec
  const { profile, binaryInfo } = resolved
  const fixable = blocking.every((p) => p.replacement !== null)
  const engine = `${basename(binaryInfo.binary)} (${forkAndVersion(binaryInfo)})`
  const flags = blocking.map((p) => (p.replacement && p.replacement.length > 0 ? `${p.flag} (use ${p.replacement.join(' ')})` : p.flag))
  const cli = `llama-tray profiles fix ${profile.id}`
  // The fix's command follows the sentence (problemText's "To fix it"), so a fixable refusal ends at the replacements.
  const sentence =
    `Profile "${profile.id}" has ${blocking.length === 1 ? 'a flag' : 'flags'} that ${engine} rejects: ${flags.join(', ')}` +
    (fixable ? '' : '; edit the profile, or choose a llama-server that accepts them')
  throw new ProfileLaunchError(sentence, blocking, {
    binary: binaryInfo.binary,
    ...(fixable
      ? { fix: { label: 'Use the replacements', run: { command: 'profiles:apply-flag-fixes', profileId: profile.id }, cli } }
      : {}),
  })
}

/** Applies the known replacements to a stored profile and saves it; returns the fixed profile and what changed. */
export async function acceptFixes(home: string, idOrName: string): Promise<{ profile: Profile; fixed: FlagProblem[] }> {
  const { store, profile } = await loadProfile(home, idOrName)
  const binaryInfo = await detectFork(home, profile.binary)
  const problems = checkFlags(profile, binaryInfo).filter((p) => p.replacement !== null)
  const fixed = applyFixes(profile, binaryInfo)
  const saved = fixed === profile ? profile : { ...fixed, updatedAt: new Date().toISOString() }
  if (saved !== profile) await store.upsert(saved)
  return { profile: saved, fixed: problems }
}
