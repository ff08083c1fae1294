import { release } from 'node:os'

export { clientBaseUrl } from '../contract/client-url'

/** Whether this process runs inside WSL (the kernel says "microsoft", or WSL set its variables). */
export function isWsl(kernelRelease: string = release(), env: NodeJS.ProcessEnv = process.env): boolean {
  return /microsoft/i.test(kernelRelease) || env.WSL_DISTRO_NAME !== undefined || env.WSL_INTEROP !== undefined
}

/**
 * What a user in WSL needs to know to reach the server from Windows: WSL
 * forwards localhost ports it sees bound, so Windows apps use localhost, not
 * the VM's address (which changes after reboots, seed 000's trap).
 */
export function wslNote(port: number): string {
  return (
    `running in WSL: Windows apps reach this server at http://localhost:${port}/v1 (WSL forwards localhost); don't use the WSL VM's IP, ` +
    `it changes after a reboot`
  )
}
