import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseProcStat, parseStatusRssKiB } from './proc-stat'

const stat = (name: string) =>
  `4242 (${name}) S 1 4242 4242 0 -1 4194560 1234 0 0 0 250 75 3 4 20 0 12 0 123456 987654321 5120 18446744073709551615 1 1 0 0 0 0 0 ` +
  `4096 0 0 0 0 17 3 0 0 0 0 0`

describe('/proc parsing', () => {
  it('reads times, children times, rss and a name with spaces and parentheses', () => {
    expect(parseProcStat(stat('Web Content) S 9 (x'))).toEqual({
      pid: 4242,
      name: 'Web Content) S 9 (x',
      state: 'S',
      ppid: 1,
      cpuMs: 3250,
      childrenCpuMs: 70,
      rssPages: 5120,
    })
    expect(parseProcStat(stat('llama-server'))?.name).toBe('llama-server')
  })

  it('returns null for truncated or garbage input and never throws', () => {
    expect(parseProcStat('')).toBeNull()
    expect(parseProcStat('12 (x) S 1 2')).toBeNull()
    expect(parseProcStat('abc (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22')).toBeNull()
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (t) => void parseProcStat(t)),
      { numRuns: 5000 },
    )
  })

  it('reads VmRSS from /proc/<pid>/status', () => {
    expect(parseStatusRssKiB('Name:\tllama-server\nVmPeak:\t  999 kB\nVmRSS:\t   95232 kB\nThreads:\t4\n')).toBe(95232)
    expect(parseStatusRssKiB('Name:\tkthreadd\nThreads:\t1\n')).toBeNull()
  })
})
