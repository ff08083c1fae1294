import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../contract/settings'
import type { Warning } from '../contract/warnings'
import type { GpuProcessUse } from '../platform/gpu-processes'
import { sample } from '../../test/support/advisor/replay'
import { seedModels } from '../../test/support/advisor/fixtures'
import { importCommand } from '../profiles/import-command'
import { ProfileStore } from '../profiles/store'
import { LiveAdvisor } from './live-advisor'

let home: string
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'llama-tray-holder-'))
})
afterAll(() => rm(home, { recursive: true, force: true }))

const game: GpuProcessUse = { pid: 15320, name: 'Cyberpunk2077.exe', dedicatedMiB: 5120, engine3dPct: 90 }

/** Five samples at `freeMiB` through an advisor whose GPU processes are `listed`; the low-VRAM warning and the peeks. */
function run(freeMiB: number, listed: readonly GpuProcessUse[] | null): { warning: Warning | undefined; peeks: number[][] } {
  const clock = { t: 0 }
  const peeks: number[][] = []
  const advisor = new LiveAdvisor({
    home,
    now: () => clock.t,
    platform: 'win32',
    gpuProcesses: {
      peek: (exclude) => {
        peeks.push([...exclude])
        return listed
      },
    },
  })
  let out: Warning[] = []
  for (let i = 0; i < 5; i++) {
    clock.t = i * 1000
    out = advisor.warnings(sample({ time: clock.t, freeMiB }), DEFAULT_SETTINGS)
  }
  return { warning: out.find((w) => w.rule === 'live.vram-low'), peeks }
}

describe('live.vram-low names the program that holds the GPU', () => {
  it('says which program to close when its memory alone gives the headroom back', () => {
    const { warning, peeks } = run(700, [game])
    expect(warning?.headline).toBe('Free VRAM on GPU 0 is 700 MiB: Cyberpunk2077.exe holds 5,120 MiB. Close it.')
    expect(warning?.headline.length).toBeLessThanOrEqual(100)
    expect(warning?.reason).toMatch(/^That is under the 1536 MiB headroom: generation may slow down several times\. On Windows/)
    // Asked only while VRAM is low, with our own server left out.
    const pid = sample({ time: 0 }).server.pid
    expect(peeks.length).toBe(5)
    expect(peeks.every((p) => p.includes(pid as number))).toBe(true)
  })

  it('keeps the placement sentence when no program holds enough, or none is named', () => {
    const small = run(700, [{ ...game, dedicatedMiB: 200 }]).warning
    expect(small?.headline).toBe('Free VRAM on GPU 0 is 700 MiB, under the 1536 MiB headroom: generation may slow down several times.')
    expect(run(700, [{ ...game, name: null }]).warning?.headline).toMatch(/under the 1536 MiB headroom/)
    expect(run(700, null).warning?.headline).toMatch(/under the 1536 MiB headroom/)
  })

  it("offers the fit's placement beside closing it, as the button", async () => {
    const seed = await seedModels()
    try {
      const store = await ProfileStore.open(home)
      const profile = importCommand(
        `/nowhere/llama-server -m ${seed.qwen36Path} -ngl 999 --n-cpu-moe 30 -c 65536 -np 1 --no-mmap -ctk q4_0 -ctv q4_0`,
        { name: 'qwen-8gb', takenIds: store.file.profiles.map((p) => p.id) },
      )
      await store.upsert(profile)
      const clock = { t: 0 }
      const advisor = new LiveAdvisor({ home, now: () => clock.t, platform: 'win32', gpuProcesses: { peek: () => [game] } })
      advisor.warnings(sample({ time: 0, profileId: profile.id }), DEFAULT_SETTINGS)
      await advisor.settled()
      let out: Warning[] = []
      for (let i = 1; i <= 4; i++) {
        clock.t = i * 1000
        out = advisor.warnings(sample({ time: clock.t, profileId: profile.id, freeMiB: 700 }), DEFAULT_SETTINGS)
      }
      const w = out.find((x) => x.rule === 'live.vram-low')
      expect(w?.headline).toBe('Free VRAM on GPU 0 is 700 MiB: Cyberpunk2077.exe holds 5,120 MiB. Close it, or use --n-cpu-moe 32.')
      expect(w?.fix?.addArgs).toEqual(['--n-cpu-moe', '32'])
    } finally {
      await rm(seed.dir, { recursive: true, force: true })
    }
  })

  it('reads nothing while free VRAM is above the headroom', () => {
    const { warning, peeks } = run(4000, [game])
    expect(warning).toBeUndefined()
    expect(peeks).toEqual([])
  })
})
