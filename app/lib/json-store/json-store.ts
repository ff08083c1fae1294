import { lstatSync, realpathSync, watch, type FSWatcher } from 'node:fs'
import { access, mkdir, rename } from 'node:fs/promises'
import { basename, dirname, relative, isAbsolute } from 'node:path'
import { FileRefusedError, readRegularFile, readRegularFileSync } from '../read-regular-file'
import { writeFileAtomic } from '../atomic-write'
import { Listeners } from '../listeners'
import { withFileLock, type FileLockOptions } from './file-lock'
import { parseJsonText, type Decoded, type JsonCodec } from './json-codec'
import { problem, type Problem } from '../../contract/problem'

/** How the last read of a store's file went (the same words as the contract's ProfileStoreHealth). */
export type JsonStoreHealth = 'ok' | 'missing' | 'recovered-from-backup' | 'quarantined' | 'read-only'

/** A store's file cannot be used or saved; the message is one sentence with the cause and the fix. */
export class JsonStoreError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'JsonStoreError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('settings', this.message)
  }
}

export interface JsonStoreOptions<T> {
  readonly path: string
  /** What the file is, for messages: "profiles file". */
  readonly label: string
  readonly codec: JsonCodec<T>
  /** The value when there is no usable file. */
  readonly defaults: () => T
  readonly lock?: FileLockOptions
  /** How long the folder must be quiet after a change before the file is read again. */
  readonly debounceMs?: number
  /** A bigger file is refused unread (a user's file is a few KB; a 67 MB one took 36 s and 990 MB to list). */
  readonly maxBytes?: number
}

/** Settings and profiles are a few KB: 4 MiB is far beyond any real one. */
export const DEFAULT_MAX_STORE_BYTES = 4 * 1024 * 1024

interface JsonStoreEvents<T> {
  /** The value changed: an own write ('self'), or a change seen on disk, another process's write ('disk'). */
  change: (value: T, source: ChangeSource) => void
  /** A sentence about the file the user should see: a repair, a migration, a file set aside. */
  notice: (message: string) => void
}

type Now = () => Date

/** A file as it is on disk, read without repairing it: missing, usable, from a newer Llama Tray, or unusable. */
export type Peeked<T> = Decoded<T> | { readonly kind: 'missing' }

/** Where a change came from: this instance's update(), or the file on disk (another process, an editor). */
export type ChangeSource = 'self' | 'disk'

const stamp = (now: Now): string => now().toISOString().replace(/[:.]/g, '-')

/** `<file>.corrupt-<time>`, with `-2`, `-3`… when that name is taken (a second damage within the same millisecond). */
async function asideName(path: string, now: Now): Promise<string> {
  const base = `${path}.corrupt-${stamp(now)}`
  for (let n = 1; ; n++) {
    const name = n === 1 ? base : `${base}-${n}`
    try {
      await access(name)
    } catch {
      return name // free (we hold the file's lock: nobody takes it meanwhile)
    }
  }
}

/**
 * One JSON file with one writer across processes. Reads take no lock (every write is an atomic
 * rename, so a reader sees the old file or the new one); update() is lock → read → change →
 * atomic write → unlock, so two processes never lose each other's changes. Each save first keeps
 * the last good file as `<file>.bak`; a damaged file is moved aside as `<file>.corrupt-<time>`
 * (never deleted) and the backup restored, with a notice naming both. A file from a newer
 * Llama Tray opens read-only. Open it through openJsonStore (one instance per file per process).
 */
export class JsonStore<T> {
  private current: T
  /** The exact text on disk that `current` came from (null: no file). */
  private text: string | null = null
  private state: JsonStoreHealth = 'missing'
  private latestNotices: readonly string[] = []
  private loaded = false
  private queue: Promise<unknown> = Promise.resolve()
  private readonly listeners = new Listeners<JsonStoreEvents<T>>()
  private changeListeners = 0
  private watcher: FSWatcher | null = null
  private debounce: NodeJS.Timeout | null = null

  constructor(private readonly options: JsonStoreOptions<T>) {
    this.current = options.defaults()
  }

  get path(): string {
    return this.options.path
  }

  get backupPath(): string {
    return `${this.path}.bak`
  }

  get value(): T {
    return this.current
  }

  get health(): JsonStoreHealth {
    return this.state
  }

  /** The notices of the latest read (empty when the file was fine). */
  get notices(): readonly string[] {
    return this.latestNotices
  }

  /** Reads the file again (cheap when it did not change); a damaged one is repaired under the lock. */
  load(now: Now = () => new Date()): Promise<T> {
    return this.serial(async () => {
      await this.read(now, false)
      return this.current
    })
  }

  /** lock → read the file as it is now → `change` → atomic write (keeping the old file as .bak) → unlock. */
  update(change: (value: T) => T | Promise<T>, now: Now = () => new Date()): Promise<T> {
    return this.serial(async () => {
      await mkdir(dirname(this.path), { recursive: true })
      return withFileLock(
        this.path,
        async () => {
          await this.read(now, true)
          if (this.state === 'read-only')
            throw new JsonStoreError(this.latestNotices[0] ?? `The ${this.options.label} ${this.path} is read-only.`)
          const next = await change(structuredClone(this.current))
          const text = `${JSON.stringify(this.options.codec.encode(next), null, 2)}\n`
          if (this.text !== null && this.state !== 'quarantined') await writeFileAtomic(this.backupPath, this.text)
          await writeFileAtomic(this.path, text)
          const saved = this.decode(text)
          this.apply(saved.kind === 'ok' ? saved.value : next, text, 'ok', [], 'self')
          return this.current
        },
        this.options.lock,
      )
    })
  }

  /**
   * The file as it is now, decoded by the store's codec, without the lock and without repairing or
   * writing anything: for readers that must never change the file (listings, diagnostics). The
   * store's value and health stay as they are.
   */
  async peek(): Promise<Peeked<T>> {
    return this.decodeOrMissing(await this.readText(this.path))
  }

  /** peek() for the few reads that cannot wait (the settings Electron needs before it is ready). */
  peekSync(): Peeked<T> {
    let text: string | null
    try {
      this.refuseLinkOut(this.path)
      text = readRegularFileSync(this.path, this.maxBytes, this.name(this.path)).toString('utf8')
    } catch (err) {
      text = this.missingOrThrow(this.path, err)
    }
    return this.decodeOrMissing(text)
  }

  /** Called on every change of the value, also those written by other processes (watched while anyone listens). */
  onDidChange(listener: (value: T, source: ChangeSource) => void): () => void {
    const off = this.listeners.on('change', listener)
    if (this.changeListeners++ === 0) this.startWatching()
    let removed = false
    return () => {
      if (removed) return
      removed = true
      off()
      if (--this.changeListeners === 0) this.stopWatching()
    }
  }

  onNotice(listener: (message: string) => void): () => void {
    return this.listeners.on('notice', listener)
  }

  private serial<R>(job: () => Promise<R>): Promise<R> {
    const run = this.queue.then(job, job)
    this.queue = run.catch(() => undefined)
    return run
  }

  private decode(text: string): Decoded<T> {
    const parsed = parseJsonText(text)
    return parsed.kind === 'ok' ? this.options.codec.decode(parsed.json) : parsed
  }

  private async read(now: Now, locked: boolean): Promise<void> {
    const text = await this.readText(this.path)
    if (this.loaded && text !== null && text === this.text) return
    const decoded = text === null ? null : this.decode(text)
    if (decoded?.kind === 'ok')
      return this.apply(
        decoded.value,
        text,
        'ok',
        decoded.notices.map((n) => this.sentence(n)),
      )
    if (decoded?.kind === 'newer') {
      const message =
        `The ${this.options.label} ${this.path} was written by a newer Llama Tray (version ${decoded.version}): ` +
        'it opened read-only and nothing will be saved; update Llama Tray to change it.'
      return this.apply(decoded.value, text, 'read-only', [message])
    }
    if (decoded === null && (await this.readText(this.backupPath)) === null) return this.apply(this.options.defaults(), null, 'missing', [])
    // A damaged file, or none beside a backup: repair under the lock, so that two processes
    // never both set the file aside (the second would move the first one's restored file).
    if (locked) return this.recover(now)
    await withFileLock(this.path, () => this.recover(now), this.options.lock)
  }

  private async recover(now: Now): Promise<void> {
    const messages: string[] = []
    const text = await this.readText(this.path)
    const decoded = text === null ? null : this.decode(text)
    if (decoded !== null && decoded.kind !== 'invalid') return this.read(now, true)
    if (decoded?.kind === 'invalid') {
      const aside = await asideName(this.path, now)
      await rename(this.path, aside)
      messages.push(`The ${this.options.label} ${this.path} could not be read (${decoded.reason}); it was moved to ${aside}.`)
    }
    const backupText = await this.readText(this.backupPath)
    const backup = backupText === null ? null : this.decode(backupText)
    if (backupText !== null && backup?.kind === 'ok') {
      await writeFileAtomic(this.path, backupText)
      messages.push(`The ${this.options.label} was restored from its backup ${this.backupPath}.`)
      return this.apply(backup.value, backupText, 'recovered-from-backup', messages)
    }
    if (backup !== null) {
      const why = backup.kind === 'invalid' ? backup.reason : 'written by a newer Llama Tray'
      messages.push(`The backup ${this.backupPath} could not be used either (${why}); it was left as it is and the defaults are used.`)
    }
    this.apply(this.options.defaults(), null, messages.length === 0 ? 'missing' : 'quarantined', messages)
  }

  private apply(value: T, text: string | null, health: JsonStoreHealth, notices: readonly string[], source: ChangeSource = 'disk'): void {
    const changed = this.loaded && text !== this.text
    this.current = value
    this.text = text
    this.state = health
    this.latestNotices = notices
    this.loaded = true
    for (const notice of notices) this.listeners.emit('notice', notice)
    if (changed) this.listeners.emit('change', value, source)
  }

  private sentence(notice: string): string {
    return `The ${this.options.label} ${this.path}: ${notice}`
  }

  private decodeOrMissing(text: string | null): Peeked<T> {
    return text === null ? { kind: 'missing' } : this.decode(text)
  }

  private async readText(path: string): Promise<string | null> {
    try {
      this.refuseLinkOut(path)
      return (await readRegularFile(path, this.maxBytes, this.name(path))).toString('utf8')
    } catch (err) {
      return this.missingOrThrow(path, err)
    }
  }

  private get maxBytes(): number {
    return this.options.maxBytes ?? DEFAULT_MAX_STORE_BYTES
  }

  /** "The profiles file profiles.json", for a refusal's sentence. */
  private name(path: string): string {
    return `The ${this.options.label} ${path}`
  }

  /** A link is followed only to a file in the store's own folder: one out of the home could be anything (a secret, a device). */
  private refuseLinkOut(path: string): void {
    let link = false
    try {
      link = lstatSync(path).isSymbolicLink()
    } catch {
      return // missing: the read says so
    }
    if (!link) return
    const target = realpathSync(path)
    const rel = relative(realpathSync(dirname(path)), target)
    if (rel.startsWith('..') || isAbsolute(rel))
      throw new FileRefusedError(`${this.name(path)} is a link out of its folder: replace it with the file itself.`, 'ENOTREG')
  }

  /** null for a missing file; any other failure as one sentence. */
  private missingOrThrow(path: string, err: unknown): null {
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    if (err instanceof FileRefusedError && err.kind !== 'a folder') throw new JsonStoreError(err.message)
    if (code === 'EISDIR' || err instanceof FileRefusedError)
      throw new JsonStoreError(`${path} is a folder where Llama Tray keeps its ${this.options.label}; move that folder away and try again.`)
    throw new JsonStoreError(
      `The ${this.options.label} ${path} could not be read (${code ?? (err as Error).message}); check its permissions and try again.`,
    )
  }

  private startWatching(): void {
    const name = basename(this.path)
    try {
      // persistent: false — watching must never keep a CLI process alive.
      this.watcher = watch(dirname(this.path), { persistent: false }, (_event, changed) => {
        if (changed !== null && changed !== name) return
        if (this.debounce) clearTimeout(this.debounce)
        this.debounce = setTimeout(() => {
          this.debounce = null
          this.load().catch((err: unknown) => this.listeners.emit('notice', err instanceof Error ? err.message : String(err)))
        }, this.options.debounceMs ?? 100)
        this.debounce.unref()
      })
      this.watcher.on('error', () => this.stopWatching())
    } catch {
      // No folder to watch yet: own writes still report changes.
      this.watcher = null
    }
  }

  private stopWatching(): void {
    this.watcher?.close()
    this.watcher = null
    if (this.debounce) clearTimeout(this.debounce)
    this.debounce = null
  }
}
