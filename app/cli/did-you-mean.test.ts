import { describe, expect, it } from 'vitest'
import { closestName, editDistance } from './did-you-mean'

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('', '')).toBe(0)
    expect(editDistance('abc', '')).toBe(3)
    expect(editDistance('--duraton', '--duration')).toBe(1)
    expect(editDistance('kitten', 'sitting')).toBe(3)
    expect(editDistance('prot', 'port')).toBe(1)
    expect(editDistance('--duraiton', '--duration')).toBe(1)
  })
})

describe('closestName', () => {
  const run = ['--cmd', '--json', '--interval', '--duration', '--ready-timeout']
  it('finds the option a typo meant', () => {
    expect(closestName('--duraton', run)).toBe('--duration')
    expect(closestName('--intervall', run)).toBe('--interval')
    expect(closestName('--JSON', run)).toBe('--json')
    expect(closestName('--ready-timout', run)).toBe('--ready-timeout')
  })
  it('finds an option cut short when only one option starts that way', () => {
    expect(closestName('--vram', ['--vram-mib', '--headroom-mib', '--gpu'])).toBe('--vram-mib')
    expect(closestName('--ready', run)).toBe('--ready-timeout')
    expect(closestName('held', ['heldRequestsMax', 'heldRequestWaitS'])).toBeNull()
    expect(closestName('--re', ['--ready-timeout'])).toBeNull()
  })
  it('suggests nothing for a word that is not close to any option', () => {
    expect(closestName('--bogus', run)).toBeNull()
    expect(closestName('--x', run)).toBeNull()
  })
})
