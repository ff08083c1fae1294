import { z } from 'zod'
import type { CommandChannels, Result } from '../contract/commands'
import type { ImportOffer } from '../contract/import-wording'
import type { Discovery, ProfileFileRole, ProfileSummary } from '../contract/profile'
import { DiscoveryPickError } from '../profiles/discovery-profile'
import { ExportError } from '../profiles/export-command'
import { importCommand, ImportError } from '../profiles/import-command'
import { makeProfileId } from '../profiles/profile-id'
import { ProfileLaunchError, resolveProfileLaunch } from '../profiles/resolve-launch'
import { ProfileEditSchema } from '../profiles/profile-edit-schema'
import { gateProfile, ProfileGateError, profileBinaryInfo, type GatedProfile, type GateFinding } from '../profiles/profile-gate'
import type { ServerBinaryInfo } from '../profiles/fork-detect'
import { adviseOnSave, savedWarnings } from '../advisor/save-findings'
import { recordModelSizes } from '../profiles/model-sizes'
import type { Profile } from '../profiles/schema'
import { ProfileStore, ProfileStoreError } from '../profiles/store'
import { profileDocument, profileSummary } from '../profiles/profile-summary'
import { problem, type Problem } from '../contract/problem'
import { problemFrom } from '../lib/problem-from'
import { profileActions, type ProfileActionDeps } from './profile-actions'

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

export interface ProfileCommandDeps extends ProfileActionDeps {
  /** Shows a native file dialog (main provides it); null when cancelled. */
  readonly chooseFile: (role: ProfileFileRole, current: string) => Promise<string | null>
  /** Called after every change, with the new list. */
  readonly onChanged: (store: ProfileStore) => Promise<void>
  /** The warnings muted for a profile (rules or finding ids): a save does not tell them again. */
  readonly mutedKeys?: (profileId: string) => readonly string[]
  /**
   * Whether the live warnings already say this profile's findings (the advisor lints the profile that runs, and re-lints it
   * when it is stored): a save of it then leaves them to the banner, so that one finding appears once.
   */
  readonly saidLive?: (profileId: string) => boolean
}

const ok = <T>(value: T): Result<T> => ({ ok: true, value })
const fail = (message: string, offer?: ImportOffer): Failed =>
  offer ? { ok: false, error: problem('profile', message), offer } : { ok: false, error: problem('profile', message) }

/** A failure as a Result error; a refused import that can be overridden says how (Import anyway, Replace). */
type Failed = { readonly ok: false; readonly error: Problem; readonly offer?: ImportOffer }

/** Known failures become Result errors with their problem; anything else is a bug and propagates. */
async function guarded<T>(job: () => Promise<Result<T>>): Promise<Result<T> | Failed> {
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
      const error = err instanceof z.ZodError ? problemFrom(err) : err.toProblem()
      const offer = err instanceof ImportError || err instanceof ProfileStoreError ? err.offer : undefined
      return offer ? { ok: false, error, offer } : { ok: false, error }
    }
    throw err
  }
}

const withNotices = (summary: ProfileSummary, notices: readonly string[]): ProfileSummary =>
  notices.length > 0 ? { ...summary, notices } : summary

/** The profiles:* commands, over the profile store of one home folder: the CLI runs the same actions (profile-actions.ts). */
export function profileCommands(deps: ProfileCommandDeps): ProfileChannels {
  // The advisor is part of the gate: its warnings come back with the saved summary and never block the save.
  const advise = (profile: Profile, binaryInfo: ServerBinaryInfo | null): Promise<readonly GateFinding[]> =>
    adviseOnSave(deps.home, profile, binaryInfo)
  const actions = profileActions({ ...deps, advise })
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
  const saved = (activeId: string | null, profile: Profile, gated: Pick<GatedProfile, 'notices' | 'findings'>): ProfileSummary => {
    const summary = withNotices(profileSummary(profile, activeId), gated.notices)
    if (deps.saidLive?.(profile.id)) return summary
    const findings = savedWarnings(profile.id, gated.findings, deps.mutedKeys?.(profile.id))
    return findings.length > 0 ? { ...summary, findings } : summary
  }
  const save = async (store: ProfileStore, profile: Profile): Promise<Result<ProfileSummary>> => {
    const gated = await gateProfile(profile, { home: deps.home, advise })
    await store.upsert(gated.profile)
    await deps.onChanged(store)
    await recordModelSizes(deps.home, [gated.profile.model, gated.profile.draftModel])
    return ok(saved(store.file.activeProfileId, gated.profile, gated))
  }

  return {
    'profiles:list': () => actions.list(),
    'profiles:get': async (id) => {
      const p = (await open()).file.profiles.find((x) => x.id === id)
      if (!p) return null
      // The editor offers the controls of this binary, in its spelling (its --help, cached by fork detection).
      const info = await profileBinaryInfo(deps.home, p)
      return { ...profileDocument(p), binaryFlags: info ? { fork: info.fork, flags: [...info.flags] } : null }
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
    'profiles:import': (commandLine, name, options = {}) =>
      guarded(async () => {
        // The CLI's refusals in the dashboard's words: a missing -m file, not a llama-server, a name taken.
        const imported = await actions.importProfile({ text: commandLine }, { ...options, ...(name ? { name } : {}), surface: 'dashboard' })
        return ok(saved((await open()).file.activeProfileId, imported.profile, imported))
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
    'profiles:export': (id, format) => guarded(async () => ok((await actions.exportProfile(id, format)).command)),
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
        const profile = await actions.remove(id)
        deleted.set(profile.id, profile)
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
        const { profile } = await actions.applyFlagFixes(id)
        return ok(profileSummary(profile, (await open()).file.activeProfileId))
      }),
    'profiles:discover': async () => {
      lastDiscovery = await actions.discover()
      return ok(lastDiscovery)
    },
    'profiles:create-discovered': (binaryId, modelId, draftModelId, name) =>
      guarded(async () => {
        if (!lastDiscovery) return fail('nothing discovered yet: run profiles:discover first')
        const { profile, notices } = await actions.createDiscovered(lastDiscovery, {
          binary: binaryId,
          model: modelId,
          draftModel: draftModelId,
          name,
        })
        const summary = profileSummary(profile, (await open()).file.activeProfileId)
        return ok(notices.length > 0 ? { ...summary, notices } : summary)
      }),
  }
}
