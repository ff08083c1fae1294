import { posix, win32 } from 'node:path'
import { describe, expect, it } from 'vitest'
import { unsafeHubPathReason } from './hub-path'

describe('unsafeHubPathReason', () => {
  it.each([['model-Q4_K_M.gguf'], ['Q4_K_M/model-Q4_K_M-00001-of-00002.gguf'], ['sub/dir/file..name.gguf']])(
    'takes the plain relative path %j',
    (name) => {
      expect(unsafeHubPathReason(name)).toBeNull()
    },
  )

  it.each([
    ['sub\\..\\..\\..\\x.gguf', 'backslash'],
    ['..\\x.gguf', 'backslash'],
    ['../x.gguf', 'climbs out'],
    ['a/../../x.gguf', 'climbs out'],
    ['/etc/x.gguf', 'absolute path'],
    ['//server/share/x.gguf', 'absolute path'],
    ['C:x.gguf', 'drive letter'],
    ['c:/Windows/x.gguf', 'drive letter'],
    ['x.gguf:stream', '":"'],
    ['a\0b.gguf', 'NUL'],
    ['a\u0007b.gguf', 'control character'],
    ['a\nb.gguf', 'control character'],
    ['a//b.gguf', 'empty or "."'],
    ['./x.gguf', 'empty or "."'],
    ['', 'empty'],
  ])('refuses %j', (name, why) => {
    expect(unsafeHubPathReason(name)).toContain(why)
  })

  it('refuses every name that either path flavour would join or resolve outside the folder it is put in', () => {
    const names = ['sub\\..\\..\\..\\x.gguf', '..\\x.gguf', '../x.gguf', 'a/../../x.gguf', 'C:\\x.gguf', '\\\\?\\C:\\x.gguf', '/etc/x.gguf']
    for (const name of names) {
      const inWin = (p: string): boolean => p.startsWith('C:\\cache\\snap\\')
      const inPosix = (p: string): boolean => p.startsWith('/cache/snap/')
      const outsideWin = !inWin(win32.join('C:\\cache\\snap', name)) || !inWin(win32.resolve('C:\\cache\\snap', name))
      const outsidePosix = !inPosix(posix.join('/cache/snap', name)) || !inPosix(posix.resolve('/cache/snap', name))
      expect(outsideWin || outsidePosix, name).toBe(true) // the case is a real escape
      expect(unsafeHubPathReason(name), name).not.toBeNull()
    }
  })
})
