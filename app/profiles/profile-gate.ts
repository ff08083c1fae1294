import type { WarningFix, WarningWords } from '../contract/warnings'
import { stat } from 'node:fs/promises'
import { detectFork, type ServerBinaryInfo } from './fork-detect'
import { applyFixes, blockingProblems, checkFlags, type FlagProblem } from './flag-check'
import { renderArgs } from './profile-args'
import type { Profile } from './schema'
import { problem, type Problem } from '../contract/problem'
import { unsendableKeyProblem } from '../supervisor/host-guard'

/** A profile the gate will not store: its message is one sentence with the cause and the fix. */
export class ProfileGateError extends Error {
  constructor(
    message: string,
    readonly problems: readonly FlagProblem[] = [],
    /** The binary that refused, for the details (the sentence names only its engine). */
    readonly binary: string | null = null,
  ) {
    super(message)
    this.name = 'ProfileGateError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    const lines = this.problems.map((p) => `${p.flag}: ${p.message}`)
    return problem('profile', this.message, { details: [...lines, ...(this.binary ? [`Binary: ${this.binary}`] : [])].join('\n') })
  }
}

/** One advisor finding as the gate sees it (the advisor is a higher layer: it comes in through `advise`). */
export interface GateFinding extends WarningWords {
  /** `<rule>` or `<rule>:<detail>`, as the advisor names it. */
  readonly id: string
  readonly level: 'info' | 'warn' | 'error'
  readonly rule?: string
  /** Its one-click fix, when it has one. */
  readonly fix?: WarningFix | null
}

export interface GateOptions {
  readonly home: string
  /** The binary's engine when the caller has it; otherwise it is detected (cached in <home>/engines.json). */
  readonly binaryInfo?: ServerBinaryInfo | null
  /** The advisor's findings for the profile as it will be stored. */
  readonly advise?: (profile: Profile, binaryInfo: ServerBinaryInfo | null) => Promise<readonly GateFinding[]>
}

export interface GatedProfile {
  /** The profile to store: flags its binary spells differently are in the binary's spelling. */
  readonly profile: Profile
  readonly binaryInfo: ServerBinaryInfo | null
  /** What the gate changed, told once ("The flag --no-mmap was written as -lm none, …"); [] when nothing changed. */
  readonly notices: readonly string[]
  /** The advisor's findings on the stored profile (warn and error level only). */
  readonly findings: readonly GateFinding[]
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  )
}

/** The engine of the profile's binary; null when there is no binary file to ask (the launch checks it again). */
async function engineOf(profile: Profile, options: GateOptions): Promise<ServerBinaryInfo | null> {
  if (options.binaryInfo !== undefined) return options.binaryInfo
  return profileBinaryInfo(options.home, profile)
}

/** What the profile's binary is and takes (its --help, cached); null when there is no binary file to ask or it cannot be asked. */
export async function profileBinaryInfo(home: string, profile: Profile): Promise<ServerBinaryInfo | null> {
  if (profile.binary === '' || !(await isFile(profile.binary))) return null
  return detectFork(home, profile.binary).catch(() => null)
}

function forkAndVersion(binaryInfo: ServerBinaryInfo): string {
  const fork =
    binaryInfo.fork === 'ik_llama' ? 'ik_llama.cpp' : binaryInfo.fork === 'buun' ? 'buun-llama-cpp' : `llama.cpp ${binaryInfo.fork}`
  return `${fork}${binaryInfo.version ? ` ${binaryInfo.version}` : ''}`
}

function translationNotice(p: FlagProblem, binaryInfo: ServerBinaryInfo): string {
  const who = `${forkAndVersion(binaryInfo)} (${binaryInfo.binary})`
  // An ineffective flag stays; what makes it work is added beside it (a draft model needs a --spec-type to speculate).
  if (p.kind === 'ineffective' && p.replacement && p.replacement.length > 0)
    return `The flag ${p.replacement.join(' ')} was added beside ${p.flag}, because ${who} does not use ${p.flag} without it.`
  const to = p.replacement && p.replacement.length > 0 ? `written as ${p.replacement.join(' ')}` : 'left out'
  return `The flag ${p.flag} was ${to}, because ${who} spells it that way.`
}

/**
 * The one gate before a profile is stored (editor, import, pasted command, Setup, recipes, discover --create,
 * advisor fixes, engine updates): flags the profile's own binary rejects are translated to its spelling when the
 * meaning is the same, and the user is told once; a flag with no such spelling refuses the profile with the reason.
 * The advisor's warn- and error-level findings on the result come back with it.
 */
export async function gateProfile(profile: Profile, options: GateOptions): Promise<GatedProfile> {
  const key = unsendableKeyProblem(renderArgs(profile), profile.env)
  if (key) throw new ProfileGateError(`The profile was not saved: ${key.reason}; ${key.hint}.`)
  const binaryInfo = await engineOf(profile, options)
  let stored = profile
  const notices: string[] = []
  if (binaryInfo) {
    const problems = checkFlags(profile, binaryInfo)
    const untranslatable = blockingProblems(problems).filter((p) => p.replacement === null)
    const first = untranslatable[0]
    if (first) {
      const others =
        untranslatable.length > 1
          ? ` (and ${untranslatable
              .slice(1)
              .map((p) => p.flag)
              .join(', ')})`
          : ''
      throw new ProfileGateError(
        `The profile was not saved: ${forkAndVersion(binaryInfo)} rejects ${first.flag}${others} (${first.message}); ` +
          `remove it or choose a binary that accepts it.`,
        untranslatable,
        binaryInfo.binary,
      )
    }
    stored = applyFixes(profile, binaryInfo)
    for (const p of problems) if (p.replacement !== null) notices.push(translationNotice(p, binaryInfo))
  }
  const findings = options.advise ? (await options.advise(stored, binaryInfo)).filter((f) => f.level !== 'info') : []
  return { profile: stored, binaryInfo, notices, findings }
}
