import { mkdir, readdir, readFile, rename, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { ProfileStoreHealth } from '../contract/profile'
import { tempFileWriter, writeFileAtomic } from '../lib/atomic-write'
import { emptyProfilesFile, migrateProfilesFile, PROFILES_FILE_VERSION, ProfilesFileSchema, type Profile, type ProfilesFile } from './schema'

export const PROFILES_FILE = 'profiles.json'

export class ProfileStoreError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProfileStoreError'
  }
}

type Parsed = { readonly kind: 'ok'; readonly file: ProfilesFile; readonly note: string | null } | { readonly kind: 'newer'; readonly version: number; readonly file: ProfilesFile } | { readonly kind: 'corrupt'; readonly reason: string }

/** Reads profiles file text: empty, NUL-filled, truncated and invalid files are 'corrupt'. */
export function parseProfilesText(text: string): Parsed {
  if (text.trim() === '') return { kind: 'corrupt', reason: 'the file is empty' }
  if (text.includes('\0')) return { kind: 'corrupt', reason: 'the file contains NUL bytes (a crash while writing, or disk damage)' }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    return { kind: 'corrupt', reason: `not valid JSON (${(err as Error).message}); the file may be truncated` }
  }
  const migrated = migrateProfilesFile(json)
  if (migrated.kind === 'invalid') return { kind: 'corrupt', reason: migrated.reason }
  if (migrated.kind === 'newer') {
    // Show what we can, never write it back.
    const loose = ProfilesFileSchema.safeParse({ ...(json as object), version: PROFILES_FILE_VERSION })
    return { kind: 'newer', version: migrated.version, file: loose.success ? loose.data : emptyProfilesFile() }
  }
  const checked = ProfilesFileSchema.safeParse(migrated.data)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    return { kind: 'corrupt', reason: `invalid profiles file: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'schema mismatch'}` }
  }
  return { kind: 'ok', file: checked.data, note: migrated.migratedFrom !== null ? `migrated from schema version ${migrated.migratedFrom}` : null }
}

async function readText(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw err
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The profiles of one home folder, in <home>/profiles.json, with one writer.
 * Every save is atomic and first copies the last good file to profiles.json.bak.
 * A corrupt file is renamed to profiles.json.corrupt-<time> (never deleted) and
 * the backup restored; a file from a newer Llama Tray opens read-only.
 */
export class ProfileStore {
  private queue: Promise<unknown> = Promise.resolve()

  private constructor(
    readonly path: string,
    private current: ProfilesFile,
    /** The exact text on disk that `current` came from (null: no file yet). */
    private lastGoodText: string | null,
    readonly health: ProfileStoreHealth,
    readonly messages: readonly string[],
  ) {}

  get backupPath(): string {
    return `${this.path}.bak`
  }

  get readOnly(): boolean {
    return this.health === 'read-only'
  }

  get file(): ProfilesFile {
    return this.current
  }

  static async open(home: string, now: () => Date = () => new Date()): Promise<ProfileStore> {
    await mkdir(home, { recursive: true })
    const path = join(home, PROFILES_FILE)
    await removeDeadTempFiles(home)
    const messages: string[] = []
    const text = await readText(path)
    if (text !== null) {
      const parsed = parseProfilesText(text)
      if (parsed.kind === 'ok') {
        if (parsed.note) messages.push(parsed.note)
        return new ProfileStore(path, parsed.file, text, 'ok', messages)
      }
      if (parsed.kind === 'newer') {
        messages.push(`${path} was written by a newer Llama Tray (schema version ${parsed.version}, this one reads ${PROFILES_FILE_VERSION}): opened read-only, nothing will be saved`)
        return new ProfileStore(path, parsed.file, text, 'read-only', messages)
      }
      const quarantined = `${path}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`
      await rename(path, quarantined)
      messages.push(`${path} could not be read (${parsed.reason}); it was moved to ${quarantined}`)
    }
    const backupText = await readText(`${path}.bak`)
    if (backupText !== null) {
      const backup = parseProfilesText(backupText)
      if (backup.kind === 'ok') {
        await writeFileAtomic(path, backupText)
        messages.push(`restored the profiles from the backup ${path}.bak`)
        return new ProfileStore(path, backup.file, backupText, 'recovered-from-backup', messages)
      }
      messages.push(`the backup ${path}.bak could not be read either (${backup.kind === 'corrupt' ? backup.reason : 'newer schema'}); it was left as it is`)
    }
    return new ProfileStore(path, emptyProfilesFile(), null, text === null && messages.length === 0 ? 'missing' : 'quarantined', messages)
  }

  /** Finds a profile by id, else by exact name, else by case-insensitive name. */
  find(idOrName: string): Profile | undefined {
    const ps = this.current.profiles
    return ps.find((p) => p.id === idOrName) ?? ps.find((p) => p.name === idOrName) ?? ps.find((p) => p.name.toLowerCase() === idOrName.toLowerCase())
  }

  get active(): Profile | undefined {
    const id = this.current.activeProfileId
    return id === null ? undefined : this.current.profiles.find((p) => p.id === id)
  }

  /** Applies `change` to a copy of the file, validates it and saves it; calls are serialised. */
  update(change: (file: ProfilesFile) => ProfilesFile): Promise<ProfilesFile> {
    const run = async (): Promise<ProfilesFile> => {
      if (this.readOnly) throw new ProfileStoreError(this.messages[0] ?? 'the profiles file is read-only')
      const next = ProfilesFileSchema.parse(change(structuredClone(this.current)))
      const text = `${JSON.stringify(next, null, 2)}\n`
      if (this.lastGoodText !== null) await writeFileAtomic(this.backupPath, this.lastGoodText)
      await writeFileAtomic(this.path, text)
      this.current = next
      this.lastGoodText = text
      return next
    }
    const result = this.queue.then(run, run)
    this.queue = result.catch(() => {})
    return result
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

  remove(id: string): Promise<ProfilesFile> {
    return this.update((file) => {
      if (!file.profiles.some((p) => p.id === id)) throw new ProfileStoreError(`no profile "${id}"`)
      file.profiles = file.profiles.filter((p) => p.id !== id)
      if (file.activeProfileId === id) file.activeProfileId = null
      if (file.previousProfileId === id) file.previousProfileId = null
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
    if (pid !== null && pid !== process.pid && !isAlive(pid)) await unlink(join(home, name)).catch(() => {})
  }
}
