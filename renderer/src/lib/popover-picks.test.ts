import { describe, expect, it } from 'vitest'
import type { Snapshot } from '../../../app/contract/snapshot'
import type { Warning } from '../../../app/contract/warnings'
import { heaviestOtherApp, mostSevereWarning } from './popover-picks'

const warning = (id: string, level: Warning['level']): Warning => ({
  id,
  level,
  rule: id,
  source: 'live',
  profileId: null,
  headline: `${id}.`,
  reason: '',
  fix: null,
})

describe('mostSevereWarning', () => {
  it('picks an error over warnings and infos, the first of a level in the core’s order', () => {
    expect(mostSevereWarning([])).toBeNull()
    // Info-level findings live in the profile's advisor list, never as the popover's notice.
    expect(mostSevereWarning([warning('tip', 'info')])).toBeNull()
    expect(mostSevereWarning([warning('a', 'info'), warning('b', 'warn'), warning('c', 'warn')])?.id).toBe('b')
    expect(mostSevereWarning([warning('a', 'warn'), warning('b', 'info'), warning('c', 'error')])?.id).toBe('c')
  })
})

describe('heaviestOtherApp', () => {
  type Cpu = NonNullable<Snapshot['cpu']>
  const server = { pid: 10, cpuPct: 40, rssMiB: 1 }
  const base: Cpu = { systemPct: 50, ramTotalMiB: 1, ramFreeMiB: 1, server, heavyApps: [], topProcesses: [] }
  const cpu = (over: Partial<Cpu>): Cpu => ({ ...base, ...over })

  it('names the busiest heavy app, never llama-server itself, else the busiest other process', () => {
    expect(heaviestOtherApp(null)).toBeNull()
    const named = [
      { name: 'OBS', pids: [3], cpuPct: 4 },
      { name: 'Discord', pids: [4], cpuPct: 14.4 },
    ]
    expect(heaviestOtherApp(cpu({ heavyApps: named }))).toBe('Discord 14%')
    const ours = [{ name: 'llama-server', pids: [10], cpuPct: 90 }]
    const top = [
      { name: 'llama-server', pid: 10, cpuPct: 90 },
      { name: 'chrome', pid: 5, cpuPct: 6 },
    ]
    expect(heaviestOtherApp(cpu({ heavyApps: ours, topProcesses: top }))).toBe('chrome 6%')
    expect(heaviestOtherApp(cpu({ heavyApps: [{ name: 'Steam', pids: [7], cpuPct: null }] }))).toBe('Steam')
    expect(heaviestOtherApp(cpu({}))).toBeNull()
  })
})
