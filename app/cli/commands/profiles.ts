import { readFile, stat } from 'node:fs/promises'
import { basename, resolve } from 'node:path'
import type { EngineKind, ProfileSummary } from '../../contract/profile'
import { EXPORT_FORMATS, ExportError, exportCommandLine, type ExportFormat } from '../../profiles/export-command'
import { importArgv, importCommand, ImportError } from '../../profiles/import-command'
import { profileArgv } from '../../profiles/launch-spec'
import { acceptFixes, describeProblems, ProfileLaunchError } from '../../profiles/resolve-launch'
import { readGpuOnce } from '../../diagnostics/gpu-once'
import { discoverWithEngines } from '../../engines/discover-with-engines'
import { fitStarterProfile } from '../../profiles/starter-fit'
import { cachedEngineKinds } from '../../profiles/engine-detect'
import { profileSummary } from '../../profiles/profile-summary'
import { checkImport } from '../../profiles/import-checks'
import { gateProfile, ProfileGateError } from '../../profiles/profile-gate'
import { bestBinary, bestDraft, bestModel, DiscoveryPickError, profileFromDiscovery } from '../../profiles/discovery-profile'
import { formatDiscovery, pickKey } from '../../profiles/discovery-report'
import type { Profile } from '../../profiles/schema'
import { ProfileStore, ProfileStoreError } from '../../profiles/store'
import { UsageError } from '../cli-error'
import type { CliCommand, CliContext } from '../command'
import { parseOptions } from '../parse-options'
import { useProfile } from './profiles-use'

type ListedProfile = ProfileSummary & { readonly modelMissing: boolean }

/** The dashboard's summary of a profile, and whether its model file is gone (the CLI's list marks it). */
async function listed(p: Profile, activeId: string | null, engines: ReadonlyMap<string, EngineKind>): Promise<ListedProfile> {
  const modelMissing =
    p.model !== '' &&
    !(await stat(p.model).then(
      () => true,
      () => false,
    ))
  return { ...profileSummary(p, activeId, engines), modelMissing }
}

/** One line per profile: active mark, id, name, model file, engine. */
function listLine(p: ListedProfile): string {
  const model = p.model ? `${basename(p.model)}${p.modelMissing ? ' (missing)' : ''}` : '(no model)'
  const engine = !p.binary
    ? 'no binary yet'
    : p.engine
      ? `engine ${p.engine === 'ik_llama' ? 'ik_llama.cpp' : p.engine}`
      : 'engine not detected yet'
  return `${p.active ? '*' : ' '} ${p.id}  ${p.name}  ${model}  ${engine}${p.active ? '  (active)' : ''}`
}

const IMPORT_VALUE_OPTIONS = new Set(['--name', '--file'])
const IMPORT_FLAG_OPTIONS = new Set(['--json', '--force', '--replace'])

/**
 * `profiles import llama-server -m a.gguf` as typed, without "--": the command starts at the first word after "import"
 * that is not one of import's own options. Returns the arguments with the "--" put in.
 */
export function withImportSeparator(args: readonly string[]): readonly string[] {
  if (args.includes('--')) return args
  const at = args.indexOf('import')
  if (at < 0 || args.slice(0, at).some((a) => !a.startsWith('-'))) return args
  let i = at + 1
  while (i < args.length) {
    const a = args[i] as string
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a
    if (IMPORT_FLAG_OPTIONS.has(a)) i++
    else if (IMPORT_VALUE_OPTIONS.has(name)) i += a.includes('=') ? 1 : 2
    else break
  }
  return i >= args.length ? args : [...args.slice(0, i), '--', ...args.slice(i)]
}

async function openStore(io: CliContext): Promise<ProfileStore> {
  const store = await ProfileStore.open(io.home)
  for (const m of store.messages) io.stderr.write(`llama-tray: ${m}\n`)
  return store
}

function mustFind(store: ProfileStore, idOrName: string | undefined, verb: string): Profile {
  if (!idOrName) throw new UsageError(`Profiles ${verb} needs a profile id.`)
  const p = store.find(idOrName)
  if (!p) throw new UsageError(`No profile "${idOrName}" (see: llama-tray profiles list).`)
  return p
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
        const store = await openStore(io)
        const engines = await cachedEngineKinds(io.home)
        const list = await Promise.all(store.file.profiles.map((p) => listed(p, store.file.activeProfileId, engines)))
        print(
          io,
          { health: store.health, messages: store.messages, activeProfileId: store.file.activeProfileId, profiles: list },
          json,
          () =>
            list.length === 0 ? 'no profiles yet (llama-tray profiles import llama-server -m model.gguf …)' : list.map(listLine).join('\n'),
        )
        return 0
      }
      case 'show': {
        const store = await openStore(io)
        const p = mustFind(store, target, 'show')
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
        const store = await openStore(io)
        const taken = store.file.profiles.map((p) => p.id)
        const options = { ...(values.name ? { name: values.name } : {}), takenIds: taken }
        let profile: Profile
        if (values.file) profile = importCommand(await readFile(values.file, 'utf8'), options)
        else if (command && command.length > 0)
          profile = command.length === 1 ? importCommand(command[0] as string, options) : importArgv(command, options)
        else throw new UsageError('Profiles import needs a command: profiles import [--name N] -- <llama-server command…> (or --file F).')
        const checked = await checkImport(profile, { force: values.force ?? false })
        const gated = await gateProfile(checked, { home: io.home })
        // The name is checked and the id made unique under the file's lock, against imports running at the same time.
        const { profile: stored, replaced: replacing } = await store.addNamed(gated.profile, { replace: values.replace ?? false })
        print(io, { ...stored, notices: gated.notices }, json, () =>
          [
            `${replacing ? 'replaced' : 'imported'} "${stored.name}" as ${stored.id}: ${profileArgv(stored).length} arguments`,
            ...gated.notices,
          ].join('\n'),
        )
        return 0
      }
      case 'export': {
        const store = await openStore(io)
        const p = mustFind(store, target, 'export')
        const format = (values.format ?? (process.platform === 'win32' ? 'cmd' : 'bash')) as ExportFormat
        if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`The option --format must be one of ${EXPORT_FORMATS.join(', ')}.`)
        const line = exportCommandLine(p, format)
        print(io, { id: p.id, format, command: line }, json, () => line)
        return 0
      }
      case 'rm': {
        const store = await openStore(io)
        const p = mustFind(store, target, 'rm')
        await store.remove(p.id)
        print(io, { removed: p.id }, json, () => `removed ${p.id}`)
        return 0
      }
      case 'use': {
        const store = await openStore(io)
        const p = mustFind(store, target, 'use')
        return await useProfile(io, store, p.id, !(values['no-wait'] ?? false), json)
      }
      case 'fix': {
        if (!target) throw new UsageError('Profiles fix needs a profile id.')
        const { profile, fixed } = await acceptFixes(io.home, target)
        print(io, { profile, fixed }, json, () =>
          fixed.length === 0 ? `${profile.id}: nothing to fix for this binary` : `${profile.id}: applied\n${describeProblems(fixed)}`,
        )
        return 0
      }
      case 'discover':
      case 'create': {
        const found = await discoverWithEngines({
          home: io.home,
          extraModelDirs: (values['models-dir'] ?? []).map((d) => resolve(d)),
          detect: values.detect ?? false,
        })
        if (sub === 'discover' && !values.create) {
          const b = bestBinary(found)
          const m = bestModel(found)
          const hint =
            b && m
              ? `\ncreate a profile: llama-tray profiles create --binary b${found.binaries.indexOf(b) + 1} --model m` +
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
        const store = await openStore(io)
        // Fitted to the GPU found now (every expert on the CPU when none is read), then through the gate.
        const gpu = await readGpuOnce().catch(() => null)
        const freeMiB = gpu?.devices[0]?.memoryFreeMiB ?? null
        const fitted = await fitStarterProfile(
          profileFromDiscovery(
            found,
            choice,
            store.file.profiles.map((p) => p.id),
          ),
          { freeMiB },
        )
        const gated = await gateProfile(fitted, { home: io.home })
        const profile = await store.add(gated.profile)
        print(io, { ...profile, notices: gated.notices }, json, () =>
          [
            `created "${profile.name}" as ${profile.id}`,
            `  ${exportCommandLine(profile, 'bash')}`,
            ...gated.notices,
            `start it: llama-tray run ${profile.id}`,
          ].join('\n'),
        )
        return 0
      }
      default:
        throw new UsageError(`Unknown profiles command "${sub}" (list, show, import, export, rm, use, fix, discover, create).`)
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
  name: 'profiles',
  summary: 'list, import, export and choose launch profiles',
  usage:
    `  llama-tray profiles list | show <id> | rm <id> | use <id> [--no-wait] [--json]
      use: with llama-tray serve running, the switch waits for its running requests (it says how long), then returns once
      the profile is ready (--no-wait returns at once); with nothing running, the profile is only marked active
  llama-tray profiles import [--name N] [--force] [--replace] [--] <llama-server command…>   (or --file F with a pasted command)
      --force stores a command whose -m file is missing or whose first word is not a llama-server; --replace overwrites a profile of the same name
  llama-tray profiles export <id> [--format cmd|powershell|bash]
  llama-tray profiles fix <id>     apply the replacements for flags its binary rejects (--no-mmap → -lm none …)
  llama-tray profiles discover [--models-dir DIR …] [--detect] [--create [--name N]]   find llama-server and GGUF models ` +
    `(PATH, install folders, LM Studio, HF cache)
  llama-tray profiles create --binary bN --model mN [--draft mN] [--name N] [--models-dir DIR …]   a profile from what discover listed`,
  run,
}
