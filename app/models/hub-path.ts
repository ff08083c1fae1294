import { posix, win32 } from 'node:path'

/**
 * Why a file name from the Hub's tree may not be used as a path in the cache
 * (null when it is a plain relative path). The name is later joined under
 * `snapshots/<commit>/` on Windows and on POSIX, so it must be safe in both
 * flavours: `sub\..\..\x.gguf` is one harmless name to posix.join but climbs
 * out of the cache through path.win32.join.
 */
export function unsafeHubPathReason(name: string): string | null {
  if (name === '') return 'is empty'
  // eslint-disable-next-line no-control-regex -- control characters are what this looks for
  if (/[\u0000-\u001f\u007f]/.test(name)) return name.includes('\0') ? 'holds a NUL character' : 'holds a control character'
  if (name.includes('\\')) return 'holds a backslash (a folder separator on Windows)'
  if (/^[a-zA-Z]:/.test(name)) return 'starts with a drive letter'
  if (name.includes(':')) return 'holds a ":" (a drive or a data stream on Windows)'
  if (posix.isAbsolute(name) || win32.isAbsolute(name)) return 'is an absolute path'
  const segments = name.split('/')
  if (segments.includes('..')) return 'climbs out with ".."'
  if (segments.some((s) => s === '' || s === '.')) return 'has an empty or "." folder'
  return null
}
