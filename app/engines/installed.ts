import { readdir, stat } from 'node:fs/promises'
import { join, relative, resolve, isAbsolute } from 'node:path'
import type { EngineBackend } from './backends'
import { enginesDir, readManifest } from './layout'
import { peekProfiles } from '../profiles/store'

export interface ProfileUse {
  readonly id: string
  readonly name: string
}

export interface InstalledEngine {
  readonly id: string
  readonly tag: string
  readonly backend: EngineBackend
  readonly dir: string
  /** The server's binary: llama-server, or llama.cpp's one program (`llama`, run as `llama serve`). */
  readonly path: string
  readonly version: string | null
  readonly publishedAt: string | null
  readonly installedAt: string
  readonly sizeBytes: number
  /** The stored profiles whose binary is this engine's. */
  readonly usedBy: readonly ProfileUse[]
}

async function folderSize(dir: string): Promise<number> {
  let total = 0
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = join(dir, e.name)
    if (e.isDirectory()) total += await folderSize(p)
    else if (e.isFile()) total += (await stat(p).catch(() => null))?.size ?? 0
  }
  return total
}

/** The stored profiles, peeked at (listing never writes; an unreadable file lists none). */
export async function storedProfiles(home: string): Promise<readonly { id: string; name: string; binary: string }[]> {
  const parsed = await peekProfiles(home).catch(() => null)
  if (parsed === null || parsed.kind === 'missing' || parsed.kind === 'corrupt') return []
  return parsed.file.profiles
}

export function isInside(dir: string, path: string): boolean {
  const rel = relative(resolve(dir), resolve(path))
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)
}

/** The engines installed in <home>/engines/, newest install first; folders in progress or without a valid manifest are left out. */
export async function listInstalled(home: string): Promise<InstalledEngine[]> {
  const root = enginesDir(home)
  const profiles = await storedProfiles(home)
  const out: InstalledEngine[] = []
  for (const e of await readdir(root, { withFileTypes: true }).catch(() => [])) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue
    const dir = join(root, e.name)
    const m = await readManifest(dir)
    if (!m || m.id !== e.name) continue
    const usedBy = profiles.filter((p) => p.binary !== '' && isInside(dir, p.binary)).map((p) => ({ id: p.id, name: p.name }))
    out.push({
      id: m.id,
      tag: m.tag,
      backend: m.backend,
      dir,
      path: join(dir, m.binary),
      version: m.engineVersion,
      publishedAt: m.publishedAt,
      installedAt: m.installedAt,
      sizeBytes: await folderSize(dir),
      usedBy,
    })
  }
  return out.sort((a, b) => b.installedAt.localeCompare(a.installedAt))
}
