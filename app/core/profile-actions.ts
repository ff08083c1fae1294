import { stat } from 'node:fs/promises'
import { recordModelSizes } from '../profiles/model-sizes'
import { basename } from 'node:path'
import type { Discovery, ExportFormat, ProfileStoreSummary } from '../contract/profile'
import type { DiscoverOptions } from '../profiles/discovery'
import { discoverWithEngines } from '../engines/discover-with-engines'
import { type DiscoveredChoice, profileFromDiscovery } from '../profiles/discovery-profile'
import { exportCommandLine } from '../profiles/export-command'
import type { FlagProblem } from '../profiles/flag-check'
import { importArgv, importCommand } from '../profiles/import-command'
import type { ImportSurface } from '../contract/import-wording'
import { gateProfile, type GateFinding, type GateOptions } from '../profiles/profile-gate'
import { storeImport } from '../profiles/store-import'
import { storeSummary } from '../profiles/profile-summary'
import { acceptFixes } from '../profiles/resolve-launch'
import type { Profile } from '../profiles/schema'
import { fitStarterProfile, type StarterGpu } from '../profiles/starter-fit'
import { ProfileStore, ProfileStoreError } from '../profiles/store'
import type { GpuDevice } from '../contract/telemetry'
import { pinBudget, pinRefusal } from './pin-check'

/** Where discovery looks, without the home folder (the actions' own). */
export type DiscoveryPlaces = Omit<DiscoverOptions, 'home'>

export interface ProfileActionDeps {
  readonly home: string
  /** Called after every change, with the store. */
  readonly onChanged?: (store: ProfileStore) => Promise<void>
  /** Where discovery looks when the caller names no places; a function is asked on each discovery (model folders from the settings). */
  readonly discovery?: DiscoveryPlaces | (() => DiscoveryPlaces)
  /** The GPU a created profile is fitted to (free VRAM, headroom); none read by default (experts stay on the CPU). */
  readonly starterGpu?: () => Promise<StarterGpu>
  /** The advisor's part of the gate (the dashboard passes it so that a save answers with the warnings); none by default. */
  readonly advise?: GateOptions['advise']
}

/** A pasted command line (bash, cmd, PowerShell), or one already split into words (the CLI's argv after "--"). */
export type ImportSource = { readonly text: string } | { readonly argv: readonly string[] }

export interface ImportChoices {
  readonly name?: string
  /** Store a command whose -m file is missing or whose first word is not a llama-server (see checkImport). */
  readonly force?: boolean
  /** Overwrite a profile of the same name instead of refusing. */
  readonly replace?: boolean
  /** Whose words a refusal uses: the CLI's options (the default) or the dashboard's buttons. */
  readonly surface?: ImportSurface
}

/** A stored profile with what the gate said about it (flags respelt for its binary, and so on). */
export interface GatedProfile {
  readonly profile: Profile
  readonly notices: readonly string[]
  /** The advisor's warn- and error-level findings on what was stored (none when no advisor was passed). */
  readonly findings: readonly GateFinding[]
}

/**
 * The profile operations both the dashboard (profile-commands.ts, over IPC) and the CLI (cli/commands/profiles.ts)
 * run: each reads and writes the one ProfileStore of the home folder and throws the profiles' typed errors
 * (ProfileStoreError, ImportError, ProfileGateError …), which each caller turns into its own answer.
 */
export function profileActions(deps: ProfileActionDeps) {
  const open = (): Promise<ProfileStore> => ProfileStore.open(deps.home)
  const changed = async (store: ProfileStore): Promise<void> => {
    await deps.onChanged?.(store)
  }
  /** A profile by id, else by name (as typed, then ignoring case). */
  const find = (store: ProfileStore, idOrName: string): Profile => {
    const p = store.find(idOrName)
    if (!p) throw new ProfileStoreError(`No profile is called "${idOrName}": check its id or name in the profile list.`)
    return p
  }

  return {
    /** The store as views list it; the messages say what recovery did to a damaged or newer file. */
    list: async (): Promise<ProfileStoreSummary> => storeSummary(await open(), deps.home),

    /** The stored profile, whole. */
    get: async (idOrName: string): Promise<Profile> => find(await open(), idOrName),

    /** The messages of the store's last recovery (quarantined file, newer schema), for a caller that prints them once. */
    storeMessages: async (): Promise<readonly string[]> => (await open()).messages,

    /**
     * A pasted or typed llama-server command becomes a stored profile: the import's refusals (a missing -m file, not a
     * llama-server) unless forced, the gate, then a name unique under the file's lock unless replacing.
     */
    importProfile: async (source: ImportSource, choices: ImportChoices = {}): Promise<GatedProfile & { readonly replaced: boolean }> => {
      const store = await open()
      const options = { ...(choices.name ? { name: choices.name } : {}), takenIds: store.file.profiles.map((p) => p.id) }
      const parsed = 'text' in source ? importCommand(source.text, options) : importArgv(source.argv, options)
      const stored = await storeImport(store, parsed, {
        home: deps.home,
        surface: choices.surface ?? 'cli',
        force: choices.force ?? false,
        replace: choices.replace ?? false,
        ...(deps.advise ? { advise: deps.advise } : {}),
      })
      await changed(store)
      await recordModelSizes(deps.home, [stored.profile.model, stored.profile.draftModel])
      return { profile: stored.profile, replaced: stored.replaced, notices: stored.notices, findings: stored.findings }
    },

    /** The profile's command line for a shell. */
    exportProfile: async (idOrName: string, format: ExportFormat): Promise<{ readonly id: string; readonly command: string }> => {
      const p = find(await open(), idOrName)
      return { id: p.id, command: exportCommandLine(p, format) }
    },

    /** Deletes a profile; returns it as it was (the dashboard keeps it for undo). */
    remove: async (idOrName: string): Promise<Profile> => {
      const store = await open()
      const profile = find(store, idOrName)
      await store.remove(profile.id)
      await changed(store)
      return profile
    },

    /** Makes a profile the active one (what `run` and the endpoint start when none is named). */
    setActive: async (idOrName: string): Promise<Profile> => {
      const store = await open()
      const profile = find(store, idOrName)
      await store.setActive(profile.id)
      await changed(store)
      return profile
    },

    /**
     * Pins a profile: it runs beside the active one while Llama Tray serves. Refused when the active and every pinned
     * profile would not fit the GPU (`gpu`: takes a reading now, null without one; only once the profile may be pinned)
     * together.
     */
    pin: async (idOrName: string, gpu: () => Promise<GpuDevice | null>): Promise<Profile> => {
      const store = await open()
      const profile = find(store, idOrName)
      const refusal = await pinRefusal(deps.home, profile.id, async () => pinBudget(deps.home, await gpu()))
      if (refusal !== null) throw new ProfileStoreError(refusal)
      await store.setPinned(profile.id, true)
      await changed(store)
      return find(store, profile.id)
    },

    /** Unpins a profile: its server stops. */
    unpin: async (idOrName: string): Promise<Profile> => {
      const store = await open()
      const profile = find(store, idOrName)
      if (!profile.pinned)
        throw new ProfileStoreError(
          `Profile "${profile.id}" is not pinned, so there is nothing to unpin; the profile list marks the pinned ones.`,
        )
      await store.setPinned(profile.id, false)
      await changed(store)
      return find(store, profile.id)
    },

    /** Applies the known replacements for flags the profile's binary rejects; the problems fixed. */
    applyFlagFixes: async (idOrName: string): Promise<{ readonly profile: Profile; readonly fixed: readonly FlagProblem[] }> => {
      const result = await acceptFixes(deps.home, idOrName)
      await changed(await open())
      return result
    },

    /**
     * Points a profile's model or draft at another file (the fix of a start that failed on a missing file:
     * `llama-tray profiles set-model`); refused when that file is not there.
     */
    setFile: async (idOrName: string, role: 'model' | 'draftModel', file: string): Promise<GatedProfile> => {
      const store = await open()
      const current = find(store, idOrName)
      const found = await stat(file).catch(() => null)
      if (!found?.isFile()) throw new ProfileStoreError(`${basename(file)} is not a file here: check the path and try again.`)
      const gated = await gateProfile(
        { ...current, [role]: file, updatedAt: new Date().toISOString() },
        { home: deps.home, ...(deps.advise ? { advise: deps.advise } : {}) },
      )
      await store.upsert(gated.profile)
      await changed(store)
      await recordModelSizes(deps.home, [gated.profile.model, gated.profile.draftModel])
      return { profile: gated.profile, notices: gated.notices, findings: gated.findings }
    },

    /** llama-server binaries and GGUF models on this machine: in `places`, else where deps.discovery says. */
    discover: (places?: DiscoveryPlaces): Promise<Discovery> => {
      const where = places ?? (typeof deps.discovery === 'function' ? deps.discovery() : deps.discovery)
      return discoverWithEngines({ ...where, home: deps.home })
    },

    /** A profile from a discovery's binary and model, fitted to the GPU (deps.starterGpu), through the gate, under a unique id. */
    createDiscovered: async (found: Discovery, choice: DiscoveredChoice): Promise<GatedProfile> => {
      const store = await open()
      const created = profileFromDiscovery(
        found,
        choice,
        store.file.profiles.map((p) => p.id),
      )
      const fitted = await fitStarterProfile(created, deps.starterGpu ? await deps.starterGpu() : { freeMiB: null })
      const gated = await gateProfile(fitted, { home: deps.home, ...(deps.advise ? { advise: deps.advise } : {}) })
      const profile = await store.add(gated.profile)
      await changed(store)
      return { profile, notices: gated.notices, findings: gated.findings }
    },
  }
}

export type ProfileActions = ReturnType<typeof profileActions>
