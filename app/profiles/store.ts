import { normalizeProfileName } from './profile-name'
import { mkdir, readdir, unlink } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { ProfileStoreHealth } from '../contract/profile'
import { duplicateNameSentence, type ImportOffer, type ImportSurface } from '../contract/import-wording'
import { tempFileWriter } from '../lib/atomic-write'
import { type Decoded, type JsonCodec, firstIssue, parseJsonText } from '../lib/json-store/json-codec'
import { type ChangeSource, JsonStoreError, type JsonStore } from '../lib/json-store/json-store'
import { isProcessAlive } from '../lib/process/process-alive'
import { openJsonStore } from '../lib/json-store/registry'
import { makeProfileId } from './profile-id'
import {
  emptyProfilesFile,
  migrateProfilesFile,
  PROFILES_FILE_VERSION,
  ProfilesFileSchema,
  type Profile,
  type ProfilesFile,
} from './schema'
import { problem, type Problem } from '../contract/problem'

export const PROFILES_FILE = 'profiles.json'

export class ProfileStoreError extends Error {
  constructor(
    message: string,
    /** How the user can have it done after all, when they can (Replace, --replace). */
    readonly offer?: ImportOffer,
  ) {
    super(message)
    this.name = 'ProfileStoreError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('profile', this.message)
  }
}

/** profiles.json through its migrations; a file from a newer Llama Tray is shown as far as it can be read. */
export const profilesCodec: JsonCodec<ProfilesFile> = {
  decode(json): Decoded<ProfilesFile> {
    const migrated = migrateProfilesFile(json)
    if (migrated.kind === 'invalid') return migrated
    if (migrated.kind === 'newer') {
      const loose = ProfilesFileSchema.safeParse({ ...(json as object), version: PROFILES_FILE_VERSION })
      return { kind: 'newer', version: migrated.version, value: loose.success ? loose.data : emptyProfilesFile() }
    }
    const checked = ProfilesFileSchema.safeParse(migrated.data)
    if (!checked.success) return { kind: 'invalid', reason: `invalid profiles file: ${firstIssue(checked.error)}` }
    const notices = migrated.migratedFrom !== null ? [`it was migrated from schema version ${migrated.migratedFrom}.`] : []
    return { kind: 'ok', value: checked.data, notices }
  },
  encode: (file) => ProfilesFileSchema.parse(file),
}

type Parsed =
  | { readonly kind: 'ok'; readonly file: ProfilesFile; readonly note: string | null }
  | { readonly kind: 'newer'; readonly version: number; readonly file: ProfilesFile }
  | { readonly kind: 'corrupt'; readonly reason: string }

/** Reads profiles file text: empty, NUL-filled, truncated and invalid files are 'corrupt'. */
export function parseProfilesText(text: string): Parsed {
  const parsed = parseJsonText(text)
  const decoded = parsed.kind === 'ok' ? profilesCodec.decode(parsed.json) : parsed
  if (decoded.kind === 'invalid') return { kind: 'corrupt', reason: decoded.reason }
  if (decoded.kind === 'newer') return { kind: 'newer', version: decoded.version, file: decoded.value }
  return { kind: 'ok', file: decoded.value, note: decoded.notices[0] ?? null }
}

/** The one JsonStore of <home>/profiles.json in this process. */
function profilesJsonStore(home: string): JsonStore<ProfilesFile> {
  return openJsonStore({
    path: join(resolve(home), PROFILES_FILE),
    label: 'profiles file',
    codec: profilesCodec,
    defaults: emptyProfilesFile,
  })
}

/**
 * profiles.json as it is now, for readers that never write (discovery, the engine list,
 * diagnostics): through the store's codec, without the lock, a repair or a migration written back.
 */
export async function peekProfiles(home: string): Promise<Parsed | { readonly kind: 'missing' }> {
  const peeked = await profilesJsonStore(home).peek()
  if (peeked.kind === 'missing') return peeked
  if (peeked.kind === 'invalid') return { kind: 'corrupt', reason: peeked.reason }
  if (peeked.kind === 'newer') return { kind: 'newer', version: peeked.version, file: peeked.value }
  return { kind: 'ok', file: peeked.value, note: peeked.notices[0] ?? null }
}

const instances = new Map<string, ProfileStore>()

/**
 * The profiles of one home folder, in <home>/profiles.json: one instance per home in a process,
 * one writer across processes (a JsonStore: every change is lock → read → change → write, the
 * last good file kept as profiles.json.bak, a damaged one moved aside and the backup restored,
 * a file from a newer Llama Tray read-only).
 */
export class ProfileStore {
  private constructor(private readonly store: JsonStore<ProfilesFile>) {}

  get path(): string {
    return this.store.path
  }

  get backupPath(): string {
    return this.store.backupPath
  }

  get readOnly(): boolean {
    return this.health === 'read-only'
  }

  get file(): ProfilesFile {
    return this.store.value
  }

  /** How the latest read went. */
  get health(): ProfileStoreHealth {
    return this.store.health
  }

  /** Sentences about the latest read (a repair, a migration, a read-only file). */
  get messages(): readonly string[] {
    return this.store.notices
  }

  /** The store of `home`, read again from disk (the file may have changed in another process). */
  static async open(home: string, now: () => Date = () => new Date()): Promise<ProfileStore> {
    const key = resolve(home)
    let instance = instances.get(key)
    if (!instance) {
      await mkdir(key, { recursive: true })
      await removeDeadTempFiles(key)
      const store = profilesJsonStore(key)
      instance = instances.get(key) ?? new ProfileStore(store)
      instances.set(key, instance)
    }
    await profileStoreCall(() => instance.store.load(now))
    return instance
  }

  /** Called with the new file whenever it changes, in this process or another. */
  onDidChange(listener: (file: ProfilesFile, source: ChangeSource) => void): () => void {
    return this.store.onDidChange(listener)
  }

  /** Finds a profile by id, else by exact name, else by case-insensitive name. */
  find(idOrName: string): Profile | undefined {
    const ps = this.file.profiles
    return (
      ps.find((p) => p.id === idOrName) ??
      ps.find((p) => p.name === idOrName) ??
      ps.find((p) => p.name.toLowerCase() === idOrName.toLowerCase())
    )
  }

  get active(): Profile | undefined {
    const id = this.file.activeProfileId
    return id === null ? undefined : this.file.profiles.find((p) => p.id === id)
  }

  /** Applies `change` to a copy of the file as it is on disk now, validates it and saves it. */
  update(change: (file: ProfilesFile) => ProfilesFile): Promise<ProfilesFile> {
    return profileStoreCall(() => this.store.update(change))
  }

  /** Adds or replaces (by id) a profile. */
  upsert(profile: Profile): Promise<ProfilesFile> {
    return this.update((file) => {
      const i = file.profiles.findIndex((p) => p.id === profile.id)
      if (i >= 0) file.profiles[i] = profile
      else file.profiles.push(profile)
      return file
    })
  }

  /**
   * Adds a new profile; when its id was taken meanwhile (by another process), it gets the next
   * free one ("qwen" → "qwen-2"). Resolves to the profile as stored.
   */
  async add(profile: Profile): Promise<Profile> {
    let stored = profile
    await this.update((file) => {
      stored = {
        ...profile,
        id: makeProfileId(
          profile.id,
          file.profiles.map((p) => p.id),
        ),
      }
      file.profiles.push(stored)
      return file
    })
    return stored
  }

  /**
   * Adds a new profile whose name must be free (case-insensitive), checked under the file's lock so that parallel
   * imports cannot both take a name; with `replace`, a profile of that name is overwritten (its id kept).
   */
  async addNamed(
    profile: Profile,
    options: { readonly replace?: boolean; readonly surface?: ImportSurface } = {},
  ): Promise<{ profile: Profile; replaced: boolean }> {
    let stored = profile
    let replaced = false
    await this.update((file) => {
      const key = (name: string): string => normalizeProfileName(name).toLowerCase()
      const at = file.profiles.findIndex((p) => key(p.name) === key(profile.name))
      const same = file.profiles[at]
      if (same && !options.replace) {
        throw new ProfileStoreError(duplicateNameSentence(same.name, same.id, options.surface ?? 'cli'), 'replace')
      }
      if (same) {
        stored = { ...profile, id: same.id, createdAt: same.createdAt }
        file.profiles[at] = stored
        replaced = true
      } else {
        stored = {
          ...profile,
          id: makeProfileId(
            profile.id,
            file.profiles.map((p) => p.id),
          ),
        }
        file.profiles.push(stored)
      }
      return file
    })
    return { profile: stored, replaced }
  }

  remove(id: string): Promise<ProfilesFile> {
    return this.update((file) => {
      if (!file.profiles.some((p) => p.id === id)) throw new ProfileStoreError(`no profile "${id}"`)
      file.profiles = file.profiles.filter((p) => p.id !== id)
      if (file.activeProfileId === id) file.activeProfileId = null
      if (file.previousProfileId === id) file.previousProfileId = null
      return file
    })
  }

  /** Pins or unpins `id` (a pinned profile runs beside the active one); the check that it fits is the caller's. */
  setPinned(id: string, pinned: boolean): Promise<ProfilesFile> {
    return this.update((file) => {
      const profile = file.profiles.find((p) => p.id === id)
      if (!profile) throw new ProfileStoreError(`no profile "${id}"`)
      if (pinned) profile.pinned = true
      else delete profile.pinned
      return file
    })
  }

  /** Makes `id` the active profile, remembering the one before (the "one click back"). */
  setActive(id: string | null): Promise<ProfilesFile> {
    return this.update((file) => {
      if (id !== null && !file.profiles.some((p) => p.id === id)) throw new ProfileStoreError(`no profile "${id}"`)
      if (file.activeProfileId !== id) file.previousProfileId = file.activeProfileId
      file.activeProfileId = id
      return file
    })
  }
}

/** The store's own errors as ProfileStoreError, which the CLI and the core show as one line. */
async function profileStoreCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (err) {
    if (err instanceof JsonStoreError) throw new ProfileStoreError(err.message)
    throw err
  }
}

/** Temp files of writers that were killed mid-save (their pid is gone). */
async function removeDeadTempFiles(home: string): Promise<void> {
  let names: string[]
  try {
    names = await readdir(home)
  } catch {
    return
  }
  for (const name of names) {
    const pid = tempFileWriter(name, PROFILES_FILE) ?? tempFileWriter(name, `${PROFILES_FILE}.bak`)
    if (pid !== null && pid !== process.pid && !isProcessAlive(pid)) await unlink(join(home, name)).catch(() => {})
  }
}
