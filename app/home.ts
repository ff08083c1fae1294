import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

/**
 * Where Llama Tray keeps its files (profiles, logs, pid files): --home, then
 * $LLAMA_TRAY_HOME, then the platform's config folder.
 */
export function resolveHome(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (explicit) return resolve(explicit)
  if (env.LLAMA_TRAY_HOME) return resolve(env.LLAMA_TRAY_HOME)
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'llama-tray')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'llama-tray')
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'llama-tray')
}

/**
 * Where the app keeps what is not the user's and need not roam with a Windows
 * profile (Chromium's caches, the app's own log): %LOCALAPPDATA%\llama-tray.
 * Null elsewhere (those stay beside the home folder).
 */
export function resolveLocalDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string | null {
  if (platform !== 'win32') return null
  return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'llama-tray')
}
