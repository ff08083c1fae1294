import { describe, expect, it } from 'vitest'
import type { LaunchSpec } from '../contract/commands'
import { sameLaunchSpec } from './same-launch'

const spec = (over: Partial<LaunchSpec> = {}): LaunchSpec => ({ profileId: 'p', exe: '/bin/llama-server', args: ['-m', 'a.gguf'], ...over })

describe('sameLaunchSpec', () => {
  it('compares the environment by content, whatever its key order; no env is an empty one', () => {
    expect(sameLaunchSpec(spec({ env: { A: '1', B: '2' } }), spec({ env: { B: '2', A: '1' } }))).toBe(true)
    expect(sameLaunchSpec(spec(), spec({ env: {} }))).toBe(true)
    expect(sameLaunchSpec(spec({ env: { A: '1' } }), spec({ env: { A: '2' } }))).toBe(false)
    expect(sameLaunchSpec(spec({ env: { A: '1' } }), spec({ env: { B: '1' } }))).toBe(false)
    expect(sameLaunchSpec(spec({ env: { A: '1' } }), spec())).toBe(false)
  })

  it('tells apart the profile, the binary and the arguments, in order', () => {
    expect(sameLaunchSpec(spec(), spec())).toBe(true)
    expect(sameLaunchSpec(spec(), spec({ profileId: 'q' }))).toBe(false)
    expect(sameLaunchSpec(spec(), spec({ exe: '/other/llama-server' }))).toBe(false)
    expect(sameLaunchSpec(spec(), spec({ args: ['a.gguf', '-m'] }))).toBe(false)
    expect(sameLaunchSpec(spec(), spec({ args: ['-m', 'a.gguf', '-c', '4096'] }))).toBe(false)
  })
})
