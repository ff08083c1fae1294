import { findFreePort, isPortInUse } from '../free-port'
import { linuxPortHolder } from './linux-port-holder'
import { windowsPortHolder } from '../../platform/win32/port-holder'
import type { PortHolder } from '../../platform/port-holder'

export type { PortHolder } from '../../platform/port-holder'

/** Who listens on `port` (any local address): Linux reads /proc, Windows asks iphlpapi; null when unknown. */
export function findPortHolder(port: number, platform: NodeJS.Platform = process.platform): PortHolder | null {
  try {
    if (platform === 'linux') return linuxPortHolder(port)
    if (platform === 'win32') return windowsPortHolder(port)
  } catch {
    // best effort: the message still says the port is taken
  }
  return null
}

/** A port near `port` that is free now (the next ten first, so it is easy to remember), else any free one. */
export async function suggestFreePort(port: number, host: string): Promise<number> {
  for (let p = port + 1; p <= Math.min(65_535, port + 10); p++) {
    if (!(await isPortInUse(p, host))) return p
  }
  return findFreePort(host)
}

export function describeHolder(holder: PortHolder | null): string {
  if (!holder) return 'another program'
  return holder.name ? `${holder.name} (pid ${holder.pid})` : `pid ${holder.pid}`
}

/** "port 8080 on 127.0.0.1 is in use by ollama (pid 4242)", and a port that is free now. */
export async function portTakenMessage(port: number, host: string): Promise<{ reason: string; freePort: number }> {
  const holder = findPortHolder(port)
  const freePort = await suggestFreePort(port, host)
  return { reason: `port ${port} on ${host} is already in use by ${describeHolder(holder)}`, freePort }
}
