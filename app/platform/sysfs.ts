import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * Where /sys is read: every read of it goes through here, so that `LLAMA_TRAY_SYSFS` (a folder laid out like /sys) can
 * fake a laptop in tests: its power supplies and its NVIDIA device's power state.
 */
export function sysfsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.LLAMA_TRAY_SYSFS || '/sys'
}

/** Reads of one /sys tree; each answers null (never throws) for what is not there. */
export class Sysfs {
  constructor(readonly root: string = sysfsRoot()) {}

  /** One attribute's text, trimmed; null when the file is missing or unreadable. */
  read(...parts: string[]): string | null {
    try {
      return readFileSync(path.join(this.root, ...parts), 'utf8').trim()
    } catch {
      return null
    }
  }

  /** The names in one folder, sorted; none when it is missing. */
  list(...parts: string[]): string[] {
    try {
      return readdirSync(path.join(this.root, ...parts)).sort()
    } catch {
      return []
    }
  }
}
