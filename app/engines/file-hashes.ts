import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256')
  await pipeline(createReadStream(path), hash)
  return hash.digest('hex')
}

/**
 * The SHA-256 of every regular file under `dir`, by its path relative to `dir`
 * with "/" separators (the same on Windows), leaving out the names in `skip`
 * at the top. Symlinks are not followed: their targets are hashed as files.
 */
export async function hashFolder(dir: string, skip: readonly string[] = []): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  const walk = async (sub: string): Promise<void> => {
    for (const e of await readdir(join(dir, sub), { withFileTypes: true })) {
      const rel = sub === '' ? e.name : `${sub}/${e.name}`
      if (sub === '' && skip.includes(e.name)) continue
      if (e.isDirectory()) await walk(rel)
      else if (e.isFile()) out[rel] = await sha256File(join(dir, rel))
    }
  }
  await walk('')
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)))
}

export interface FileDrift {
  readonly changed: readonly string[]
  readonly missing: readonly string[]
}

/** Which recorded files are gone or hold other bytes now (files added since are not judged). */
export function compareHashes(recorded: Readonly<Record<string, string>>, now: Readonly<Record<string, string>>): FileDrift {
  const changed: string[] = []
  const missing: string[] = []
  for (const [name, sha] of Object.entries(recorded)) {
    const current = now[name]
    if (current === undefined) missing.push(name)
    else if (current !== sha) changed.push(name)
  }
  return { changed, missing }
}
