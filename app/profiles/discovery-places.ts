import { readdir } from 'node:fs/promises'
import { posix, win32 } from 'node:path'
import { hubCacheDir } from '../models/hf-env'

/** Where discovery looks, for one platform, home folder and environment. */
export interface DiscoveryPlaces {
  readonly platform: NodeJS.Platform
  readonly homedir: string
  readonly env: Readonly<Record<string, string | undefined>>
}

export const pathApi = (platform: NodeJS.Platform): typeof posix => (platform === 'win32' ? win32 : posix)

/** llama-server's names, and llama.cpp's one program (winget and the install script give `llama.exe`, run as `llama serve`). */
export function serverExeNames(platform: NodeJS.Platform): readonly string[] {
  return platform === 'win32' ? ['llama-server.exe', 'llama.exe'] : ['llama-server', 'llama']
}

/** The folders of PATH (Path on Windows), in order, without empties and duplicates. */
export function pathFolders(p: DiscoveryPlaces): string[] {
  const raw = p.env.PATH ?? p.env.Path ?? p.env.path ?? ''
  const sep = p.platform === 'win32' ? ';' : ':'
  return [
    ...new Set(
      raw
        .split(sep)
        .map((d) => d.trim().replace(/^"(.*)"$/, '$1'))
        .filter((d) => d !== ''),
    ),
  ]
}

async function subfolders(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name)
  } catch {
    return []
  }
}

/** Common install folders of llama.cpp and its forks (build trees, package managers, /opt). */
export async function installFolders(p: DiscoveryPlaces): Promise<string[]> {
  const { join } = pathApi(p.platform)
  const home = p.homedir
  // Source builds people make by following the README (mainline and the forks).
  const builds = ['llama.cpp', 'ik_llama.cpp', 'buun-llama-cpp'].flatMap((name) =>
    p.platform === 'win32'
      ? [join(home, name, 'build', 'bin', 'Release'), join(home, name, 'build', 'bin')]
      : [join(home, name, 'build', 'bin')],
  )
  if (p.platform === 'win32') {
    const local = p.env.LOCALAPPDATA ?? join(home, 'AppData', 'Local')
    return [
      join(local, 'llama.cpp'),
      ...builds,
      'C:\\llama.cpp',
      'C:\\llama.cpp\\build\\bin\\Release',
      join(local, 'Microsoft', 'WinGet', 'Links'),
      join(p.env.SCOOP ?? join(home, 'scoop'), 'shims'),
    ]
  }
  if (p.platform === 'darwin') return ['/opt/homebrew/bin', '/usr/local/bin', ...builds, join(home, '.local', 'bin')]
  const opt = (await subfolders('/opt')).map((name) => join('/opt', name, 'bin'))
  return [...builds, '/usr/local/bin', '/usr/bin', join(home, '.local', 'bin'), ...opt]
}

/** Model folders: the ones the user added, then LM Studio's, the Hugging Face hub cache, ~/models. */
export function modelFolders(p: DiscoveryPlaces, extra: readonly string[]): { readonly dir: string; readonly source: string }[] {
  const { join } = pathApi(p.platform)
  const home = p.homedir
  const hfHub = hubCacheDir(p.env, home, p.platform)
  return [
    ...extra.map((dir) => ({ dir, source: 'folder you added' })),
    { dir: join(home, '.lmstudio', 'models'), source: 'LM Studio' },
    { dir: join(home, '.cache', 'lm-studio', 'models'), source: 'LM Studio' },
    { dir: hfHub, source: 'Hugging Face cache' },
    { dir: join(home, 'models'), source: '~/models' },
  ]
}
