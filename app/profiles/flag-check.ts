import type { FlagProblemKind } from '../contract/profile'
import { fieldSpellings, has, looksLikeFlag, replacementFor, spellingsOf } from '../contract/flag-args'
import type { ServerBinaryInfo } from './fork-detect'
import { renderArgs, withArgs } from './profile-args'
import type { Profile } from './schema'

export interface FlagProblem {
  readonly flag: string
  /** Position of the flag in the arguments. */
  readonly index: number
  readonly kind: FlagProblemKind
  readonly message: string
  /** What replaces the flag (and its value) on this engine; [] = drop it; null = no known equivalent. */
  readonly replacement: readonly string[] | null
}

type BinaryFacts = Pick<ServerBinaryInfo, 'fork' | 'flags' | 'cacheTypes' | 'version'>

const CACHE_TYPE_FLAGS = new Set([...fieldSpellings('cacheTypeK'), ...fieldSpellings('cacheTypeV')])
const LEGACY_DRAFT_MAX = new Set(spellingsOf('draft-max'))
const LEGACY_DRAFT_MIN = new Set(spellingsOf('draft-min'))

const LOAD_MODE_FLAGS = new Set(fieldSpellings('loadMode'))

/** `--load-mode VALUE` as a binary without --load-mode says it; null when it has no spelling for it. */
function oldLoadModeSpelling(value: string): string[] | null {
  switch (value) {
    case 'none':
      return ['--no-mmap']
    case 'mlock':
      return ['--no-mmap', '--mlock']
    case 'mmap+mlock':
      return ['--mlock']
    case 'mmap':
    case 'auto':
      return []
    default:
      return null
  }
}

interface Review {
  readonly problems: FlagProblem[]
  readonly fixed: string[]
}

/** How a problem's message names the binary: "mainline 0.5.0-dev", "ik_llama.cpp 4840". */
export function forkAndVersion(e: BinaryFacts): string {
  return `${e.fork === 'ik_llama' ? 'ik_llama.cpp' : e.fork === 'buun' ? 'buun-llama-cpp' : e.fork}${e.version ? ` ${e.version}` : ''}`
}

/** One pass over the arguments: every problem, and the arguments with the known fixes applied. */
function review(args: readonly string[], binaryInfo: BinaryFacts): Review {
  const problems: FlagProblem[] = []
  const fixed: string[] = []
  if (binaryInfo.flags.size === 0) return { problems, fixed: [...args] }
  // ik_llama's --help leaves out some flags it accepts (-ngl in a CPU build): judge
  // only the flags we know it rejects. Mainline and buun list every flag.
  const accepts = (f: string): boolean =>
    binaryInfo.flags.has(f) ||
    (binaryInfo.fork === 'ik_llama' &&
      replacementFor(f) === undefined &&
      !LEGACY_DRAFT_MAX.has(f) &&
      !LEGACY_DRAFT_MIN.has(f) &&
      f !== '--draft-p-min')
  const who = forkAndVersion(binaryInfo)
  const loadMode = accepts('--load-mode')
  const noMmapRejected = !accepts('--no-mmap') && args.includes('--no-mmap')
  const mlockRejected = !accepts('--mlock') && args.includes('--mlock')
  const ikStage: string[] = [] // ik_llama: draft settings go inside --spec-type draft:…
  const add = (flag: string, index: number, kind: FlagProblemKind, message: string, replacement: readonly string[] | null): void => {
    problems.push({ flag, index, kind, message, replacement })
  }
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (!looksLikeFlag(a)) {
      fixed.push(a)
      continue
    }
    const eq = a.indexOf('=')
    const name = eq > 0 ? a.slice(0, eq) : a
    const value = eq > 0 ? a.slice(eq + 1) : args[i + 1]
    if (LOAD_MODE_FLAGS.has(name) && !binaryInfo.flags.has(name) && binaryInfo.flags.has('--no-mmap') && value !== undefined) {
      // The other direction: a binary from before --load-mode spells the same choice with --no-mmap / --mlock.
      if (eq < 0) i++
      const spelled = oldLoadModeSpelling(value)
      if (spelled) {
        const said = spelled.length > 0 ? spelled.join(' ') : 'nothing (memory mapping is its default)'
        add(name, i, 'rejected', `${who} has no ${name}: ${name} ${value} is ${said} there`, spelled)
        fixed.push(...spelled)
      } else {
        add(name, i, 'rejected', `${who} has no ${name} and no spelling of load mode "${value}"`, null)
        fixed.push(a)
        if (eq < 0) fixed.push(value)
      }
      continue
    }
    if (accepts(name)) {
      if (CACHE_TYPE_FLAGS.has(name) && binaryInfo.cacheTypes && value !== undefined && !binaryInfo.cacheTypes.includes(value)) {
        add(name, i, 'bad-value', `${who} has no KV cache type "${value}" (it accepts ${binaryInfo.cacheTypes.join(', ')})`, null)
      }
      fixed.push(a)
      continue
    }
    const takesValue = (): string | undefined => {
      if (eq < 0) i++
      return value
    }
    if (loadMode && name === '--no-mmap') {
      const mode = mlockRejected ? 'mlock' : 'none'
      add(name, i, 'rejected', `${who} removed --no-mmap${mlockRejected ? ' and --mlock' : ''}: use --load-mode ${mode} (-lm ${mode})`, [
        '-lm',
        mode,
      ])
      fixed.push('-lm', mode)
    } else if (loadMode && name === '--mlock') {
      if (noMmapRejected) {
        add(name, i, 'rejected', `${who} removed --mlock: with --no-mmap it becomes -lm mlock`, [])
      } else {
        add(name, i, 'rejected', `${who} removed --mlock: use --load-mode mmap+mlock (-lm mmap+mlock)`, ['-lm', 'mmap+mlock'])
        fixed.push('-lm', 'mmap+mlock')
      }
    } else if (loadMode && name === '--mmap') {
      add(name, i, 'rejected', `${who} removed --mmap: use -lm mmap`, ['-lm', 'mmap'])
      fixed.push('-lm', 'mmap')
    } else if ((LEGACY_DRAFT_MAX.has(name) || LEGACY_DRAFT_MIN.has(name)) && value !== undefined) {
      const max = LEGACY_DRAFT_MAX.has(name)
      takesValue()
      const modern = max ? '--spec-draft-n-max' : '--spec-draft-n-min'
      if (binaryInfo.flags.has(modern)) {
        add(name, i, 'rejected', `${who} removed ${name}: use ${modern} ${value}`, [modern, value])
        fixed.push(modern, value)
      } else if (binaryInfo.fork === 'ik_llama' && accepts('--spec-type')) {
        const key = max ? 'n_max' : 'n_min'
        ikStage.push(`${key}=${value}`)
        add(name, i, 'rejected', `${who} rejects ${name}: put ${key}=${value} inside --spec-type draft:…`, [])
      } else {
        add(name, i, 'rejected', `${who} does not accept ${name}`, null)
        fixed.push(a)
        if (eq < 0) fixed.push(value)
      }
    } else {
      const hint = replacementFor(name)
      add(name, i, 'rejected', `${who} does not accept ${name}${hint ? `: ${hint}` : ''}`, null)
      fixed.push(a)
    }
  }
  // A draft model alone does not speculate on mainline and ik_llama: a --spec-type is needed.
  const draftIndex = args.findIndex((a) => fieldSpellings('draftModel').some((f) => a === f || a.startsWith(`${f}=`)))
  if (ikStage.length > 0 || (draftIndex >= 0 && !has(args, fieldSpellings('specType')) && accepts('--spec-type'))) {
    if (binaryInfo.fork === 'ik_llama') {
      const at = fixed.findIndex((a, k) => a === '--spec-type' && /^draft(:|$)/.test(fixed[k + 1] ?? ''))
      if (at >= 0) {
        const stage = fixed[at + 1] as string
        fixed[at + 1] = `${stage}${stage.includes(':') ? ',' : ':'}${ikStage.join(',')}`
      } else {
        const spec = ikStage.length > 0 ? `draft:${ikStage.join(',')}` : 'draft'
        fixed.push('--spec-type', spec)
        if (draftIndex >= 0)
          add(
            args[draftIndex] as string,
            draftIndex,
            'ineffective',
            `${who} ignores a draft model without --spec-type: add --spec-type ${spec}`,
            ['--spec-type', spec],
          )
      }
    } else if (binaryInfo.fork === 'mainline' && draftIndex >= 0) {
      add(
        args[draftIndex] as string,
        draftIndex,
        'ineffective',
        `${who} loads a draft model given alone but does not speculate: add --spec-type draft-simple`,
        ['--spec-type', 'draft-simple'],
      )
      fixed.push('--spec-type', 'draft-simple')
    }
  }
  return { problems, fixed }
}

/** Every argument of `args` that this engine would reject or ignore, with the known replacement. */
export function checkArgs(args: readonly string[], binaryInfo: BinaryFacts): FlagProblem[] {
  return review(args, binaryInfo).problems
}

/** The profile's arguments checked against the engine. */
export function checkFlags(profile: Profile, binaryInfo: BinaryFacts): FlagProblem[] {
  return checkArgs(renderArgs(profile), binaryInfo)
}

/** `args` with every known replacement applied (problems without one stay). */
export function fixArgs(args: readonly string[], binaryInfo: BinaryFacts): string[] {
  return review(args, binaryInfo).fixed
}

/** The profile with every known replacement applied (order and untouched arguments kept). */
export function applyFixes(profile: Profile, binaryInfo: BinaryFacts): Profile {
  const args = renderArgs(profile)
  const fixed = fixArgs(args, binaryInfo)
  return fixed.length === args.length && fixed.every((a, i) => a === args[i]) ? profile : withArgs(profile, fixed)
}

/** Problems that make the server exit ("invalid argument"): they block a launch. 'ineffective' ones only warn. */
export function blockingProblems(problems: readonly FlagProblem[]): FlagProblem[] {
  return problems.filter((p) => p.kind === 'rejected' || p.kind === 'bad-value')
}
