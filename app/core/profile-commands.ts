import { z } from 'zod'
import type { CommandChannels, Result } from '../contract/commands'
import type { Discovery, ProfileFileRole, ProfileSummary } from '../contract/profile'
import type { DiscoverOptions } from '../profiles/discovery'
import { discoverWithEngines } from '../engines/discover-with-engines'
import { DiscoveryPickError, profileFromDiscovery } from '../profiles/discovery-profile'
import { exportCommandLine, ExportError } from '../profiles/export-command'
import { importCommand, ImportError } from '../profiles/import-command'
import { makeProfileId } from '../profiles/profile-id'
import { acceptFixes, ProfileLaunchError, resolveProfileLaunch } from '../profiles/resolve-launch'
import { ProfileEditSchema } from '../profiles/profile-edit-schema'
import { gateProfile, ProfileGateError } from '../profiles/profile-gate'
import { fitStarterProfile, type StarterGpu } from '../profiles/starter-fit'
import type { Profile } from '../profiles/schema'
import { ProfileStore, ProfileStoreError } from '../profiles/store'
import { profileDocument, profileSummary, storeSummary } from '../profiles/profile-summary'
import { problem } from '../contract/problem'
import { problemFrom } from '../lib/problem-from'

type ProfileChannels = Pick<
  CommandChannels,
  | 'profiles:list'
  | 'profiles:get'
  | 'profiles:check'
  | 'profiles:update'
  | 'profiles:choose-file'
  | 'profiles:import'
  | 'profiles:set-command'
  | 'profiles:export'
  | 'profiles:duplicate'
  | 'profiles:delete'
  | 'profiles:undo-delete'
  | 'profiles:apply-flag-fixes'
  | 'profiles:discover'
  | 'profiles:create-discovered'
>

export interface ProfileCommandDeps {
  readonly home: string
  /** Shows a native file dialog (main provides it); null when cancelled. */
  readonly chooseFile: (role: ProfileFileRole, current: string) => Promise<string | null>
  /** Called after every change, with the new list. */
  readonly onChanged: (store: ProfileStore) => Promise<void>
  /**
   * Where discovery looks (environment, home folder, added model folders); this process's by default. A function is asked on each discovery
   * (model folders from the settings).
   */
  readonly discovery?: Omit<DiscoverOptions, 'home'> | (() => Omit<DiscoverOptions, 'home'>)
  /** The GPU a created profile is fitted to (free VRAM, headroom); none read by default (experts stay on the CPU). */
  readonly starterGpu?: () => Promise<StarterGpu>
}

const ok = <T>(value: T): Result<T> => ({ ok: true, value })
const fail = (message: string): Result<never> => ({ ok: false, error: problem('profile', message) })

/** Known failures become Result errors with their problem; anything else is a bug and propagates. */
async function guarded<T>(job: () => Promise<Result<T>>): Promise<Result<T>> {
  try {
    return await job()
  } catch (err) {
    if (
      err instanceof ImportError ||
      err instanceof ExportError ||
      err instanceof ProfileStoreError ||
      err instanceof ProfileLaunchError ||
      err instanceof DiscoveryPickError ||
      err instanceof ProfileGateError ||
      err instanceof z.ZodError
    ) {
      return { ok: false, error: err instanceof z.ZodError ? problemFrom(err) : err.toProblem() }
    }
    throw err
  }
}

/** The profiles:* commands, over the profile store of one home folder. */
export function profileCommands(deps: ProfileCommandDeps): ProfileChannels {
  const deleted = new Map<string, Profile>()
  // The last discovery: the renderer names binaries and models by its ids, never by path.
  let lastDiscovery: Discovery | null = null
  const open = (): Promise<ProfileStore> => ProfileStore.open(deps.home)
  const changed = async (store: ProfileStore, profile: Profile): Promise<Result<ProfileSummary>> => {
    await deps.onChanged(store)
    return ok(profileSummary(profile, store.file.activeProfileId))
  }
  const find = (store: ProfileStore, id: string): Profile => {
    const p = store.file.profiles.find((x) => x.id === id)
    if (!p) throw new ProfileStoreError(`no profile "${id}"`)
    return p
  }
  const touch = (p: Profile): Profile => ({ ...p, updatedAt: new Date().toISOString() })
  // Every write goes through the gate: the binary's spelling of each flag, or a refusal with the reason.
  const save = async (store: ProfileStore, profile: Profile): Promise<Result<ProfileSummary>> => {
    const gated = await gateProfile(profile, { home: deps.home })
    await store.upsert(gated.profile)
    await deps.onChanged(store)
    const summary = profileSummary(gated.profile, store.file.activeProfileId)
    return ok(gated.notices.length > 0 ? { ...summary, notices: gated.notices } : summary)
  }

  return {
    'profiles:list': async () => storeSummary(await open(), deps.home),
    'profiles:get': async (id) => {
      const p = (await open()).file.profiles.find((x) => x.id === id)
      return p ? profileDocument(p) : null
    },
    'profiles:check': (id) =>
      guarded(async () => {
        const resolved = await resolveProfileLaunch(deps.home, id)
        return ok(resolved.problems.map((p) => ({ flag: p.flag, kind: p.kind, message: p.message, replacement: p.replacement })))
      }),
    'profiles:update': (id, edit) =>
      guarded(async () => {
        const e = ProfileEditSchema.parse(edit)
        const store = await open()
        const current = find(store, id)
        const { draftModel, ...rest } = e
        const next: Profile = touch({
          ...current,
          ...rest,
          settings: e.settings ?? current.settings,
          extraArgs: e.extraArgs ? [...e.extraArgs] : current.extraArgs,
          env: e.env ? { ...e.env } : current.env,
        })
        if (draftModel === null) delete (next as { draftModel?: string }).draftModel
        else if (draftModel !== undefined) next.draftModel = draftModel
        // Typed edits change the argument order: drop the pasted order so the profile renders canonically.
        if (e.settings || e.extraArgs) delete (next as { argOrder?: unknown }).argOrder
        return save(store, next)
      }),
    'profiles:choose-file': (id, role) =>
      guarded(async () => {
        const store = await open()
        const current = find(store, id)
        const chosen = await deps.chooseFile(role, role === 'draftModel' ? (current.draftModel ?? '') : current[role])
        if (chosen === null) return ok(null)
        const next = touch({ ...current, [role]: chosen })
        return save(store, next)
      }),
    'profiles:import': (commandLine, name) =>
      guarded(async () => {
        const store = await open()
        const profile = importCommand(commandLine, { name: name ?? undefined, takenIds: store.file.profiles.map((p) => p.id) })
        return save(store, profile)
      }),
    'profiles:set-command': (id, commandLine) =>
      guarded(async () => {
        const store = await open()
        const current = find(store, id)
        // The same reading as an import (and so the same trust); what the profile is stays.
        const parsed = importCommand(commandLine, { name: current.name, takenIds: [] })
        const next: Profile = touch({ ...parsed, id: current.id, name: current.name, notes: current.notes, createdAt: current.createdAt })
        return save(store, next)
      }),
    'profiles:export': (id, format) => guarded(async () => ok(exportCommandLine(find(await open(), id), format))),
    'profiles:duplicate': (id) =>
      guarded(async () => {
        const store = await open()
        const source = find(store, id)
        const name = `${source.name} (copy)`
        const now = new Date().toISOString()
        const copy: Profile = {
          ...structuredClone(source),
          id: makeProfileId(
            name,
            store.file.profiles.map((p) => p.id),
          ),
          name,
          createdAt: now,
          updatedAt: now,
        }
        await store.upsert(copy)
        return changed(store, copy)
      }),
    'profiles:delete': (id) =>
      guarded(async () => {
        const store = await open()
        const profile = find(store, id)
        await store.remove(id)
        deleted.set(id, profile)
        await deps.onChanged(store)
        return ok(profileSummary(profile, null))
      }),
    'profiles:undo-delete': (id) =>
      guarded(async () => {
        const profile = deleted.get(id)
        if (!profile) return fail(`nothing to undo for "${id}"`)
        const store = await open()
        if (store.file.profiles.some((p) => p.id === id)) return fail(`a profile "${id}" exists again; rename it first`)
        await store.upsert(profile)
        deleted.delete(id)
        return changed(store, profile)
      }),
    'profiles:apply-flag-fixes': (id) =>
      guarded(async () => {
        const { profile } = await acceptFixes(deps.home, id)
        const store = await open()
        return changed(store, profile)
      }),
    'profiles:discover': async () => {
      const where = typeof deps.discovery === 'function' ? deps.discovery() : deps.discovery
      lastDiscovery = await discoverWithEngines({ ...where, home: deps.home })
      return ok(lastDiscovery)
    },
    'profiles:create-discovered': (binaryId, modelId, draftModelId, name) =>
      guarded(async () => {
        if (!lastDiscovery) return fail('nothing discovered yet: run profiles:discover first')
        const store = await open()
        const created = profileFromDiscovery(
          lastDiscovery,
          { binary: binaryId, model: modelId, draftModel: draftModelId, name },
          store.file.profiles.map((p) => p.id),
        )
        return save(store, await fitStarterProfile(created, deps.starterGpu ? await deps.starterGpu() : { freeMiB: null }))
      }),
  }
}
