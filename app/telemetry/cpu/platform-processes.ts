import { LinuxProcessSource } from './linux-processes'
import type { ProcessSource } from '../../platform/process-source'
import { WindowsProcessSource } from '../../platform/win32/toolhelp-processes'

/** The process table of this platform; null where we have none (macOS), and the app goes on without it. */
export function platformProcessSource(platform: NodeJS.Platform = process.platform): ProcessSource | null {
  if (platform === 'linux') return new LinuxProcessSource()
  if (platform === 'win32') {
    const source = new WindowsProcessSource()
    return source.problem === null ? source : null
  }
  return null
}
