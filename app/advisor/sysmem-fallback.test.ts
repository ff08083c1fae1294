import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../contract/settings'
import type { WarningWords } from '../contract/warnings'
import { sharedUsageByPid, type PdhItem } from '../platform/win32/pdh-parsing'
import { LiveAdvisor } from './live-advisor'
import { sample } from '../../test/support/advisor/replay'

// live.sysmem-fallback fed the way TelemetryService feeds it: PDH counter items
// (GPU Process Memory instances, in bytes) → llama-server's MiB by pid.
// The items are shaped as PDH returns them (one instance per adapter node);
// real numbers from a laptop are on docs/windows-manual-checklist.md.

let home: string
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'llama-tray-sysmem-'))
})
afterAll(() => rm(home, { recursive: true, force: true }))

const SERVER_PID = 4242 // test/support/advisor/replay's llama-server pid
const MIB = 1024 * 1024

/** PDH's items at one sample: the server's shared usage on the dGPU, plus the iGPU and a browser. */
function pdhItems(serverSharedMiB: number): PdhItem[] {
  return [
    { name: `pid_${SERVER_PID}_luid_0x00000000_0x0000C2A1_phys_0`, status: 0, value: BigInt(Math.round(serverSharedMiB * MIB)) },
    { name: `pid_${SERVER_PID}_luid_0x00000000_0x0000D1F0_phys_0`, status: 0, value: 12n * BigInt(MIB) },
    { name: 'pid_9876_luid_0x00000000_0x0000C2A1_phys_0', status: 0, value: 900n * BigInt(MIB) },
  ]
}

interface Step {
  readonly sharedMiB: number
  readonly tokensPerSecond: number
  readonly freeMiB: number | null
}

/** Runs samples 1 s apart through the advisor; returns the indices where the rule was up, and what it last said. */
function run(steps: readonly Step[], platform: 'win32' | 'linux' = 'win32'): { up: number[]; words: WarningWords | undefined } {
  const clock = { t: 0 }
  let items = pdhItems(0)
  const advisor = new LiveAdvisor({
    home,
    now: () => clock.t,
    platform,
    sharedGpuMemoryMiB: (pid) => sharedUsageByPid(items).get(pid) ?? 0,
  })
  const up: number[] = []
  let words: WarningWords | undefined
  steps.forEach((step, i) => {
    clock.t = 1000 + i * 1000
    items = pdhItems(step.sharedMiB)
    const snapshot = sample({
      time: clock.t,
      active: true,
      tokensPerSecond: step.tokensPerSecond,
      rollingMedian: 18,
      freeMiB: step.freeMiB,
      gpu:
        step.freeMiB === null
          ? { available: false, reason: 'no NVML', backend: null, stale: false, sampledAt: null, devices: [] }
          : undefined,
    })
    const w = advisor.warnings(snapshot, DEFAULT_SETTINGS).find((x) => x.rule === 'live.sysmem-fallback')
    if (w) {
      up.push(i)
      words = w
    }
  })
  return { up, words }
}

const steady = (n: number, over: Partial<Step> = {}): Step[] =>
  Array.from({ length: n }, () => ({ sharedMiB: 180, tokensPerSecond: 18, freeMiB: 1500, ...over }))

describe('live.sysmem-fallback (Windows: shared GPU memory from PDH)', () => {
  it('raises when the server spills into shared memory while generation slows, even without a VRAM reading, with the fix', () => {
    // 12 s steady after the load (baseline at 10 s), then +300 MiB/s of spill and the rate falls to 7 tok/s (seed 000).
    const spill = Array.from({ length: 8 }, (_, i) => ({ sharedMiB: 180 + (i + 1) * 300, tokensPerSecond: 7, freeMiB: null }))
    const { up, words } = run([...steady(12, { freeMiB: null }), ...spill])
    expect(up[0]).toBe(14) // growth > 256 MiB from sample 12 on; raised at the third such sample
    expect(words?.headline).toBe('Spilling into system RAM (sysmem fallback): generation slows to a crawl.')
    // The measurement is the reason's first sentence.
    expect(words?.reason).toMatch(
      new RegExp(
        String.raw`^Llama-server now holds \d+ MiB more shared GPU memory than after loading, and generation is at 7\.0 tok\/s,` +
          String.raw` 39% of this profile's median\. On an RTX 4060 Laptop \(8 GB\) it fell to ~7 tok\/s\. `,
      ),
    )
    expect(words?.reason).toMatch(
      /Raise --n-cpu-moe \(more experts on the CPU\), or set "CUDA - Sysmem Fallback Policy" to "Prefer No Sysmem Fallback"/,
    )
  })

  it('stays quiet when shared usage grows but generation keeps its speed and VRAM has room', () => {
    const grow = Array.from({ length: 10 }, (_, i) => ({ sharedMiB: 180 + (i + 1) * 300, tokensPerSecond: 17, freeMiB: 1500 }))
    expect(run([...steady(12), ...grow]).up).toEqual([])
  })

  it('stays quiet when generation slows without any spill (another cause)', () => {
    expect(run([...steady(12), ...steady(10, { tokensPerSecond: 5 })]).up).toEqual([])
  })

  it('is Windows only', () => {
    const spill = Array.from({ length: 8 }, (_, i) => ({ sharedMiB: 180 + (i + 1) * 300, tokensPerSecond: 7, freeMiB: 100 }))
    expect(run([...steady(12), ...spill], 'linux').up).toEqual([])
  })
})
