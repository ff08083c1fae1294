import { createRequire } from 'node:module'

export type Koffi = typeof import('koffi')

let cached: Koffi | string | undefined

/**
 * koffi, loaded on first use so that a missing or broken native module turns
 * NVML off (with the reason) instead of breaking the import of the app.
 */
export function loadKoffi(): Koffi | string {
  if (cached === undefined) {
    try {
      cached = createRequire(import.meta.url)('koffi') as Koffi
    } catch (err) {
      cached = `koffi (the FFI module) could not be loaded: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`
    }
  }
  return cached
}
