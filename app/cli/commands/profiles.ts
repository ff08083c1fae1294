import { readFile, stat } from 'node:fs/promises'
import { basename, resolve } from 'node:path'
import type { ProfileSummary } from '../../contract/profile'
import type { GpuDevice } from '../../contract/telemetry'
import { profileActions, type ProfileActions } from '../../core/profile-actions'
import { EXPORT_FORMATS, ExportError, exportCommandLine, type ExportFormat } from '../../profiles/export-command'
import { ImportError } from '../../profiles/import-command'
import { profileArgv } from '../../profiles/launch-spec'
import { cachedEngine } from '../../profiles/fork-detect'
import { describeProblems, ProfileLaunchError } from '../../profiles/resolve-launch'
import { readGpuOnce } from '../../diagnostics/gpu-once'
import { ProfileGateError } from '../../profiles/profile-gate'
import { bestBinary, bestDraft, bestModel, DiscoveryPickError } from '../../profiles/discovery-profile'
import { formatDiscovery, pickKey } from '../../profiles/discovery-report'
import { ProfileStoreError } from '../../profiles/store'
import { UsageError } from '../cli-error'
import type { CliCommand, CliContext } from '../command'
import { didYouMean } from '../did-you-mean'
import { parseOptions } from '../parse-options'
import { useProfile } from './profiles-use'
import { PROFILES_HELP } from './profiles-help'

type ListedProfile = ProfileSummary & { readonly modelMissing: boolean; readonly engineVersion: string | null }

/** The dashboard's summary of a profile, whether its model file is gone and its engine's version (the CLI's list shows both). */
async function listed(home: string, p: ProfileSummary): Promise<ListedProfile> {
  const modelMissing =
    p.model !== '' &&
    !(await stat(p.model).then(
      () => true,
      () => false,
    ))
  const engine = p.binary ? await cachedEngine(home, p.binary).catch(() => null) : null
  return { ...p, fork: p.fork ?? engine?.fork ?? null, modelMissing, engineVersion: engine?.version ?? null }
}

/** One line per profile: active mark, id, name, model file, engine (fork and version). */
function listLine(p: ListedProfile): string {
  const model = p.model ? `${basename(p.model)}${p.modelMissing ? ' (missing)' : ''}` : '(no model)'
  const engine = !p.binary
    ? 'no binary yet'
    : p.fork
      ? `engine ${p.fork === 'ik_llama' ? 'ik_llama.cpp' : p.fork}${p.engineVersion ? ` ${p.engineVersion}` : ''}`
      : 'engine not detected yet'
  return `${p.active ? '*' : ' '} ${p.id}  ${p.name}  ${model}  ${engine}${p.active ? '  (active)' : ''}${p.pinned ? '  (pinned)' : ''}`
}

const PROFILES_COMMANDS = [
  'list',
  'show',
  'import',
  'export',
  'rm',
  'use',
  'pin',
  'unpin',
  'fix',
  'set-model',
  'set-draft',
  'discover',
  'create',
]

const IMPORT_VALUE_OPTIONS = new Set(['--name', '--file'])
const IMPORT_FLAG_OPTIONS = new Set(['--json', '--force', '--replace'])

/**
 * `profiles import llama-server -m a.gguf` as typed, without "--": the command starts at the first word after "import"
 * that is neither one of import's own options nor a dashed word (a command starts with its program; a mistyped option
 * such as --nmae stays with import's options, which name it). Returns the arguments with the "--" put in.
 */
export function withImportSeparator(args: readonly string[]): readonly string[] {
  if (args.includes('--')) return args
  const at = args.indexOf('import')
  if (at < 0 || args.slice(0, at).some((a) => !a.startsWith('-'))) return args
  let i = at + 1
  while (i < args.length) {
    const a = args[i] as string
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a
    if (IMPORT_FLAG_OPTIONS.has(a) || (a.startsWith('-') && !IMPORT_VALUE_OPTIONS.has(name))) i++
    else if (IMPORT_VALUE_OPTIONS.has(name)) i += a.includes('=') ? 1 : 2
    else break
  }
  return i >= args.length ? args : [...args.slice(0, i), '--', ...args.slice(i)]
}

/**
 * The dashboard's profile actions (core/profile-actions.ts) over this home folder; what store recovery did (a damaged
 * or newer profiles.json) is said once on stderr. A created profile is fitted to the GPU read now, every expert on the
 * CPU when none is read.
 */
async function openActions(io: CliContext): Promise<ProfileActions> {
  const actions = profileActions({
    home: io.home,
    starterGpu: async () => ({ freeMiB: (await readGpuOnce().catch(() => null))?.devices[0]?.memoryFreeMiB ?? null }),
  })
  for (const m of await actions.storeMessages()) io.stderr.write(`llama-tray: ${m}\n`)
  return actions
}

function needsProfile(idOrName: string | undefined, verb: string): string {
  if (!idOrName) throw new UsageError(`Profiles ${verb} needs a profile id.`)
  return idOrName
}

const print = (io: CliContext, value: unknown, json: boolean, human: () => string): void => {
  io.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human()}\n`)
}

async function run(typed: readonly string[], io: CliContext): Promise<number> {
  const args = withImportSeparator(typed)
  const dashDash = args.indexOf('--')
  const head = dashDash >= 0 ? args.slice(0, dashDash) : args
  const command = dashDash >= 0 ? args.slice(dashDash + 1) : null
  const { values, positionals } = parseOptions(
    head,
    {
      json: { type: 'boolean' },
      name: { type: 'string' },
      file: { type: 'string' },
      format: { type: 'string' },
      'models-dir': { type: 'string', multiple: true },
      detect: { type: 'boolean' },
      create: { type: 'boolean' },
      binary: { type: 'string' },
      model: { type: 'string' },
      draft: { type: 'string' },
      force: { type: 'boolean' },
      replace: { type: 'boolean' },
      'no-wait': { type: 'boolean' },
    },
    true,
  )
  const json = values.json ?? false
  const [sub, target] = positionals
  try {
    switch (sub) {
      case undefined:
      case 'list': {
        const summary = await (await openActions(io)).list()
        const list = await Promise.all(summary.profiles.map((p) => listed(io.home, p)))
        print(io, { ...summary, profiles: list }, json, () =>
          list.length === 0
            ? 'No profiles yet; import one with llama-tray profiles import llama-server -m model.gguf.'
            : list.map(listLine).join('\n'),
        )
        return 0
      }
      case 'show': {
        const p = await (await openActions(io)).get(needsProfile(target, 'show'))
        print(
          io,
          p,
          json,
          () =>
            `${p.id}: ${p.name}\n  ${exportCommandLine({ ...p, binary: p.binary || 'llama-server' }, 'bash')}${p.notes ? `\n  notes: ${p.notes}` : ''}`,
        )
        return 0
      }
      case 'import': {
        const actions = await openActions(io)
        const source = values.file
          ? { text: await readFile(values.file, 'utf8') }
          : command && command.length > 0
            ? command.length === 1
              ? { text: command[0] as string }
              : { argv: command }
            : null
        if (!source)
          throw new UsageError('Profiles import needs a command: profiles import [--name N] -- <llama-server command…> (or --file F).')
        const {
          profile: stored,
          replaced,
          notices,
        } = await actions.importProfile(source, {
          ...(values.name ? { name: values.name } : {}),
          force: values.force ?? false,
          replace: values.replace ?? false,
        })
        print(io, { ...stored, notices }, json, () =>
          [
            `${replaced ? 'Replaced' : 'Imported'} "${stored.name}" as ${stored.id}: ${profileArgv(stored).length} arguments.`,
            ...notices,
          ].join('\n'),
        )
        return 0
      }
      case 'export': {
        const actions = await openActions(io)
        const idOrName = needsProfile(target, 'export')
        const format = (values.format ?? (process.platform === 'win32' ? 'cmd' : 'bash')) as ExportFormat
        if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`The option --format must be one of ${EXPORT_FORMATS.join(', ')}.`)
        const { id, command: line } = await actions.exportProfile(idOrName, format)
        print(io, { id, format, command: line }, json, () => line)
        return 0
      }
      case 'rm': {
        const removed = await (await openActions(io)).remove(needsProfile(target, 'rm'))
        print(io, { removed: removed.id }, json, () => `Removed profile ${removed.id}.`)
        return 0
      }
      case 'use': {
        const actions = await openActions(io)
        const p = await actions.get(needsProfile(target, 'use'))
        return await useProfile(io, actions, p.id, !(values['no-wait'] ?? false), json)
      }
      case 'pin': {
        const gpu = async (): Promise<GpuDevice | null> => (await readGpuOnce().catch(() => null))?.devices[0] ?? null
        const p = await (await openActions(io)).pin(needsProfile(target, 'pin'), gpu)
        print(io, { pinned: p.id }, json, () => `Pinned ${p.id}: it runs beside the active profile while Llama Tray serves.`)
        return 0
      }
      case 'unpin': {
        const p = await (await openActions(io)).unpin(needsProfile(target, 'unpin'))
        print(io, { unpinned: p.id }, json, () => `Unpinned ${p.id}: its server stops.`)
        return 0
      }
      case 'fix': {
        if (!target) throw new UsageError('Profiles fix needs a profile id.')
        const { profile, fixed } = await profileActions({ home: io.home }).applyFlagFixes(target)
        print(io, { profile, fixed }, json, () =>
          fixed.length === 0
            ? `Profile ${profile.id} has nothing to fix for this binary.`
            : `Applied to profile ${profile.id}:\n${describeProblems(fixed)}`,
        )
        return 0
      }
      case 'set-model':
      case 'set-draft': {
        const file = positionals[2]
        if (!target || !file) throw new UsageError(`Profiles ${sub} needs a profile id and a .gguf file.`)
        const role = sub === 'set-model' ? 'model' : 'draftModel'
        const { profile } = await (await openActions(io)).setFile(target, role, resolve(file))
        print(io, { profile: profile.id, [role]: profile[role] }, json, () => `Profile ${profile.id} now uses ${basename(file)}.`)
        return 0
      }
      case 'discover':
      case 'create': {
        const found = await profileActions({ home: io.home }).discover({
          extraModelDirs: (values['models-dir'] ?? []).map((d) => resolve(d)),
          detect: values.detect ?? false,
        })
        if (sub === 'discover' && !values.create) {
          const b = bestBinary(found)
          const m = bestModel(found)
          const hint =
            b && m
              ? `\nCreate a profile: llama-tray profiles create --binary b${found.binaries.indexOf(b) + 1} --model m` +
                `${found.models.indexOf(m) + 1} ` +
                `[--draft mN] [--name NAME]  (or: profiles discover --create)`
              : ''
          print(io, found, json, () => `${formatDiscovery(found)}${hint}`)
          return 0
        }
        // create picks what the user named; discover --create picks the best binary and model (and a draft-sized model of the same
        // vocabulary).
        const model = values.model ? null : bestModel(found)
        const choice = {
          binary: values.binary ? pickKey(values.binary, 'b') : (bestBinary(found)?.id ?? ''),
          model: values.model ? pickKey(values.model, 'm') : (model?.id ?? ''),
          draftModel: values.draft
            ? pickKey(values.draft, 'm')
            : sub === 'discover' && model
              ? (bestDraft(found, model)?.id ?? null)
              : null,
          name: values.name ?? null,
        }
        if (sub === 'create' && (!values.binary || !values.model))
          throw new UsageError('Profiles create needs --binary and --model (numbers or ids from: llama-tray profiles discover).')
        if (choice.binary === '')
          throw new UsageError(
            `No llama-server found on PATH or in the usual install folders: install llama.cpp with llama-tray engines install, put it ` +
              `on PATH, or import a command line.`,
          )
        if (choice.model === '') throw new UsageError(`No usable GGUF model found; add a folder with --models-dir DIR.`)
        // Fitted to the GPU found now (every expert on the CPU when none is read), then through the gate.
        const { profile, notices } = await (await openActions(io)).createDiscovered(found, choice)
        print(io, { ...profile, notices }, json, () =>
          [
            `Created "${profile.name}" as ${profile.id}.`,
            `  ${exportCommandLine(profile, 'bash')}`,
            ...notices,
            `Start it: llama-tray run ${profile.id}`,
          ].join('\n'),
        )
        return 0
      }
      default:
        throw new UsageError(
          `Unknown profiles command "${sub}"${didYouMean(sub, PROFILES_COMMANDS)}; known: ${PROFILES_COMMANDS.join(', ')}.`,
        )
    }
  } catch (err) {
    if (
      err instanceof ImportError ||
      err instanceof ExportError ||
      err instanceof ProfileStoreError ||
      err instanceof ProfileLaunchError ||
      err instanceof DiscoveryPickError ||
      err instanceof ProfileGateError
    )
      throw new UsageError(err.message)
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' && values.file) throw new UsageError(`Cannot read ${values.file}: no such file.`)
    throw err
  }
}

export const profilesCommand: CliCommand = {
  ...PROFILES_HELP,
  run,
}
