import { createWriteStream } from 'node:fs'
import { link, mkdir, symlink } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { formatBytes, MAX_RATIO, MAX_UNPACKED_BYTES, MIN_ALLOWANCE_BYTES, type ArchiveLimits } from './archive-budget'
import { UnsafeArchiveError } from './archive-error'

/** Why an archive path may not be written (null when it is a plain relative path inside the archive). */
export function unsafePathReason(name: string): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'holds a control character'
  const p = name.replace(/\\/g, '/')
  if (p.startsWith('/') || /^[a-zA-Z]:/.test(p)) return 'is an absolute path'
  if (p.split('/').includes('..')) return 'climbs out with ".."'
  if (
    p
      .replace(/\/+$/, '')
      .split('/')
      .every((s) => s === '' || s === '.')
  )
    return 'names no file'
  return null
}

/** Why a link at `entry` pointing at `target` may not be made (null when it stays inside the archive). */
export function unsafeLinkReason(entry: string, target: string, kind: 'symlink' | 'hardlink'): string | null {
  const t = target.replace(/\\/g, '/')
  if (t === '') return `is a ${kind} to nothing`
  if (t.startsWith('/') || /^[a-zA-Z]:/.test(t)) return `is a ${kind} to the absolute path ${target}`
  // A symlink resolves from its own folder; a hard link names a path from the archive's root.
  const from = kind === 'symlink' ? posix.dirname(entry.replace(/\\/g, '/')) : '.'
  const joined = posix.normalize(posix.join(from, t))
  if (joined === '..' || joined.startsWith('../')) return `is a ${kind} leading outside the archive (${target})`
  return null
}

type Kind = 'dir' | 'file' | 'link'

/** The archive-relative key of a path: `/` separators, no `./` or trailing `/`, lower case (Windows and macOS fold case). */
const keyOf = (name: string): string => posix.normalize(name.replace(/\\/g, '/')).replace(/\/+$/, '').toLowerCase()

/**
 * Writes an archive's entries into an empty folder, one at a time, refusing at the first
 * entry that is unsafe: a path that is not plain, a name that comes twice (in any case),
 * a path through a file or a symlink of the archive, and any byte past the budgets (counted
 * as written, not as headers claim). Symlinks are made only at the end, once every file is
 * written, so nothing is ever written through one, and only when their target, read
 * lexically, stays inside and passes through no other link of the archive.
 */
export class ArchiveWriter {
  private readonly kinds = new Map<string, Kind>()
  private readonly symlinks: { readonly name: string; readonly target: string }[] = []
  private entries = 0
  private written = 0

  constructor(
    private readonly archive: string,
    private readonly archiveBytes: number,
    private readonly root: string,
    private readonly limits: ArchiveLimits,
  ) {}

  async dir(name: string): Promise<void> {
    const path = this.claim(name, 'dir')
    await mkdir(path, { recursive: true })
  }

  /**
   * Writes one file from the stream `open` gives, with backpressure. `claimedBytes` (what a
   * header says) is refused up front when over budget; the bytes that arrive are counted all the same.
   */
  async file(name: string, open: () => Promise<AsyncIterable<Buffer>>, executable: boolean, claimedBytes: number): Promise<void> {
    const path = this.claim(name, 'file')
    if (claimedBytes > this.limits.entryBytes) throw this.tooLargeEntry(name)
    if (this.written + claimedBytes > this.limits.totalBytes) throw this.tooLarge(name)
    await mkdir(join(path, '..'), { recursive: true })
    const source = await open()
    let mine = 0
    const count = async function* (this: ArchiveWriter, chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
      for await (const chunk of chunks) {
        mine += chunk.length
        this.written += chunk.length
        if (mine > this.limits.entryBytes) throw this.tooLargeEntry(name)
        if (this.written > this.limits.totalBytes) throw this.tooLarge(name)
        yield chunk
      }
    }.bind(this)
    // 'wx': never replace or follow what is there (a duplicate is refused above; this is the floor under it).
    await pipeline(source, count, createWriteStream(path, { flags: 'wx', mode: executable ? 0o755 : 0o644 }))
  }

  symlink(name: string, target: string): void {
    const why = unsafeLinkReason(name, target, 'symlink')
    if (why) throw new UnsafeArchiveError(this.archive, name, why)
    this.claim(name, 'link')
    this.symlinks.push({ name, target })
  }

  /** A hard link names an earlier file of the archive (from its root); it costs no space. */
  async hardlink(name: string, target: string): Promise<void> {
    const why = unsafeLinkReason(name, target, 'hardlink')
    if (why) throw new UnsafeArchiveError(this.archive, name, why)
    if (this.kinds.get(keyOf(target)) !== 'file') {
      throw new UnsafeArchiveError(this.archive, name, `is a hardlink to ${target}, which is not a file written before it`)
    }
    const path = this.claim(name, 'file')
    await mkdir(join(path, '..'), { recursive: true })
    await link(join(this.root, ...keyPath(target)), path)
  }

  /** Makes the symlinks, once every file is in place. */
  async finish(): Promise<void> {
    for (const { name, target } of this.symlinks) {
      const through = this.linkOnTheWay(name, target)
      if (through !== null) throw new UnsafeArchiveError(this.archive, name, `is a symlink that leads through the symlink ${through}`)
    }
    for (const { name, target } of this.symlinks) {
      const path = join(this.root, ...keyPath(name))
      await mkdir(join(path, '..'), { recursive: true })
      await symlink(target, path)
    }
  }

  /**
   * The first symlink of the archive that resolving `target` from `name`'s folder passes through
   * (its last step may be one: a chain). Walked step by step, not normalized: in `a/../..` the
   * `a` is visited before the `..` and, if a link, makes the lexical check above meaningless.
   */
  private linkOnTheWay(name: string, target: string): string | null {
    const at = keyOf(name).split('/').slice(0, -1)
    const steps = target
      .replace(/\\/g, '/')
      .toLowerCase()
      .split('/')
      .filter((s) => s !== '' && s !== '.')
    for (const [i, step] of steps.entries()) {
      if (step === '..') at.pop()
      else at.push(step)
      const here = at.join('/')
      if (i < steps.length - 1 && this.kinds.get(here) === 'link') return here
    }
    return null
  }

  /** Checks a new entry and records it; returns where it goes. */
  private claim(name: string, kind: Kind): string {
    const why = unsafePathReason(name)
    if (why) throw new UnsafeArchiveError(this.archive, name, why)
    if (++this.entries > this.limits.entries) {
      throw new UnsafeArchiveError(this.archive, name, `is past the ${this.limits.entries} entries an archive may hold`)
    }
    const key = keyOf(name)
    for (const parent of ancestors(key)) {
      const was = this.kinds.get(parent)
      if (was === 'file') throw new UnsafeArchiveError(this.archive, name, `would go inside the file ${parent}`)
      if (was === 'link') throw new UnsafeArchiveError(this.archive, name, `would be written through the symlink ${parent}`)
      this.kinds.set(parent, 'dir')
    }
    const was = this.kinds.get(key)
    if (was !== undefined && !(was === 'dir' && kind === 'dir')) {
      throw new UnsafeArchiveError(this.archive, name, 'comes twice in the archive (names that differ only in case count as one)')
    }
    this.kinds.set(key, kind)
    return join(this.root, ...keyPath(name))
  }

  private tooLarge(name: string): UnsafeArchiveError {
    const limit = this.limits.totalBytes
    const rule =
      limit >= MAX_UNPACKED_BYTES
        ? 'the most any archive may unpack to'
        : limit <= MIN_ALLOWANCE_BYTES
          ? 'the least any archive may unpack to'
          : `${MAX_RATIO} times its size`
    const why = `takes it past ${formatBytes(limit)} unpacked (${rule}; the archive is ${formatBytes(this.archiveBytes)})`
    return new UnsafeArchiveError(this.archive, name, `${why}, so it looks like an archive bomb`)
  }

  private tooLargeEntry(name: string): UnsafeArchiveError {
    const why = `unpacks past ${formatBytes(this.limits.entryBytes)}, the most one file of an archive may hold`
    return new UnsafeArchiveError(this.archive, name, `${why}, so it looks like an archive bomb`)
  }
}

/** `a/b/c` → `a`, `a/b` (the folders above it). */
function ancestors(key: string): string[] {
  const parts = key.split('/')
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'))
}

/** The path's segments as the archive spells them (case kept), for joining under the root. */
function keyPath(name: string): string[] {
  return posix.normalize(name.replace(/\\/g, '/')).replace(/\/+$/, '').split('/')
}
