import { copyFile, mkdir, readlink, rm, symlink, writeFile } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'

/**
 * The Hugging Face cache layout for one repo, shared with huggingface_hub and
 * llama.cpp's `-hf`: `models--{org}--{name}/blobs/<sha256>` (the content),
 * `snapshots/<commit>/<path>` (a relative symlink to the blob), `refs/main`
 * (the commit), and in-progress downloads as `blobs/<sha256>.incomplete`.
 */
export interface RepoCache {
  readonly dir: string
  blob(sha256: string): string
  incomplete(sha256: string): string
  snapshot(commit: string, path: string): string
  ref(name: string): string
}

export const repoFolderName = (repo: string): string => `models--${repo.replace(/\//g, '--')}`

export function repoCache(cacheDir: string, repo: string): RepoCache {
  const dir = join(cacheDir, repoFolderName(repo))
  return {
    dir,
    blob: (sha) => join(dir, 'blobs', sha),
    incomplete: (sha) => join(dir, 'blobs', `${sha}.incomplete`),
    snapshot: (commit, path) => join(dir, 'snapshots', commit, ...path.split('/')),
    ref: (name) => join(dir, 'refs', name),
  }
}

/**
 * Puts a blob at its snapshot path: a relative symlink, or a copy where
 * symlinks are not allowed (Windows without Developer Mode or the right).
 */
export async function linkSnapshot(blob: string, snapshotPath: string, link: typeof symlink = symlink): Promise<'symlink' | 'copy'> {
  await mkdir(dirname(snapshotPath), { recursive: true })
  const target = relative(dirname(snapshotPath), blob)
  const existing = await readlink(snapshotPath).catch(() => null)
  if (existing === target) return 'symlink'
  await rm(snapshotPath, { force: true })
  try {
    await link(target, snapshotPath, 'file')
    return 'symlink'
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    if (code !== 'EPERM' && code !== 'EACCES' && code !== 'ENOTSUP' && code !== 'EINVAL') throw err
    await copyFile(blob, snapshotPath)
    return 'copy'
  }
}

export async function writeRef(cache: RepoCache, name: string, commit: string): Promise<void> {
  await mkdir(dirname(cache.ref(name)), { recursive: true })
  await writeFile(cache.ref(name), commit)
}
