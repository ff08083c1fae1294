import { readFileSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '../contract/settings'
import type { HistoryRequest } from '../contract/history'
import type { Warning } from '../contract/warnings'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { importCommand } from '../profiles/import-command'
import type { Profile, ProfilesFile } from '../profiles/schema'
import { ProfileStore } from '../profiles/store'
import { decodeThrottleMask } from '../telemetry/gpu/smi-fields'
import { LiveAdvisor, type LiveSnapshot } from './live-advisor'
import { device, sample, type SampleSpec } from '../../test/support/advisor/replay'
import { FIXTURES, seedModels, type SeedModels } from '../../test/support/advisor/fixtures'

let home: string
let seed: SeedModels
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'llama-tray-live-'))
  seed = await seedModels()
})
afterAll(async () => {
  await rm(home, { recursive: true, force: true })
  await rm(seed.dir, { recursive: true, force: true })
})

const SETTINGS = DEFAULT_SETTINGS

function newAdvisor(clock: { t: number }, platform: 'win32' | 'linux' = 'linux'): LiveAdvisor {
  return new LiveAdvisor({ home, now: () => clock.t, platform })
}

/** Runs specs through an advisor whose clock follows the sample times; gives the sample indices where `id` was raised and cleared. */
function transitionsOf(
  specs: readonly SampleSpec[],
  rule: string,
  platform: 'win32' | 'linux' = 'linux',
  settings = SETTINGS,
): { raised: number[]; cleared: number[]; out: Warning[][] } {
  const clock = { t: 0 }
  const advisor = newAdvisor(clock, platform)
  const out: Warning[][] = []
  const raised: number[] = []
  const cleared: number[] = []
  let before = false
  specs.forEach((s, i) => {
    clock.t = s.time
    const w = advisor.warnings(sample(s), settings)
    out.push(w)
    const now = w.some((x) => x.rule === rule)
    if (now && !before) raised.push(i)
    if (!now && before) cleared.push(i)
    before = now
  })
  return { raised, cleared, out }
}

const seq = (start: number, values: readonly Partial<SampleSpec>[]): SampleSpec[] =>
  values.map((v, i) => ({ time: start + i * 1000, ...v }))
const times = <T>(n: number, v: T): T[] => Array.from({ length: n }, () => v)

describe('live.vram-low', () => {
  it('raises after 3 low samples, holds inside the 256 MiB band, clears after 5 samples above it', () => {
    const specs = seq(0, [
      ...times(5, { freeMiB: 3000 }),
      ...times(10, { freeMiB: 740 }),
      ...times(3, { freeMiB: 1700 }),
      ...times(6, { freeMiB: 2000 }),
    ])
    const { raised, cleared, out } = transitionsOf(specs, 'live.vram-low', 'win32')
    expect(raised).toEqual([7])
    expect(cleared).toEqual([22])
    const w = out[7]?.find((x) => x.rule === 'live.vram-low')
    expect(w).toMatchObject({ id: 'live.vram-low@p', level: 'warn', source: 'live', profileId: 'p', since: 7000 })
    expect(w?.headline).toBe('Free VRAM on GPU 0 is 740 MiB, under the 1536 MiB headroom: generation may slow down several times.')
    expect(w?.reason).toMatch(/^On Windows the NVIDIA driver then spills into system RAM \(sysmem fallback\)/)
  })

  it("at the core's idle pace (a sample every 2 s) it raises 4 s after the first low sample", () => {
    const specs = [...times(3, { freeMiB: 3000 }), ...times(4, { freeMiB: 740 })].map((v, i) => ({ time: i * 2000, ...v }))
    const { raised, out } = transitionsOf(specs, 'live.vram-low', 'win32')
    expect(raised).toEqual([5])
    expect(out[5]?.find((x) => x.rule === 'live.vram-low')?.since).toBe(10_000)
  })

  it('is pending from its first low sample until it raises, so the core can take the next samples sooner', async () => {
    const clock = { t: 0 }
    const advisor = newAdvisor(clock, 'win32')
    const pendingAt = (freeMiB: number): boolean => {
      clock.t += 1000
      advisor.warnings(sample({ time: clock.t, freeMiB }), SETTINGS)
      return advisor.pending()
    }
    expect(advisor.pending()).toBe(false) // no warnings asked yet
    expect([3000, 740, 740, 740, 740].map(pendingAt)).toEqual([false, true, true, false, false])
    // Back above the headroom and low again: pending again; muted, it is not waited for.
    expect([3000, 3000, 3000, 3000, 3000, 740].map(pendingAt)).toEqual([false, false, false, false, false, true])
    await advisor.mute('p', 'live.vram-low')
    expect(advisor.pending()).toBe(false)
    await advisor.unmute('p', 'live.vram-low') // mutes are stored in the shared home
  })

  it('is gone at the first sample after the server stops, though its hysteresis still holds it', () => {
    const specs = seq(0, [...times(5, { freeMiB: 740 }), { freeMiB: 740, state: 'stopped' }, { freeMiB: 740, state: 'ready' }])
    const { raised, cleared } = transitionsOf(specs, 'live.vram-low', 'win32')
    expect(raised).toEqual([2, 6]) // a running server with the same low VRAM has it again at once
    expect(cleared).toEqual([5])
  })

  it('replays a recorded nvidia-smi stream (H200 allocating 96 GiB): raises and clears at the expected samples', () => {
    const lines = readFileSync(join(FIXTURES, 'nvidia-smi', 'h200-driver580', 'stream-under-load.csv'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    const recorded = lines.map((l) => {
      const c = l.split(',').map((x) => x.trim())
      return { free: Number(c[7]), temp: Number(c[10]), reasons: decodeThrottleMask(BigInt(c[15] as string)) }
    })
    // A headroom of 100,000 MiB puts the H200's threshold inside the recording (free falls to ~47 GB).
    const settings = { ...SETTINGS, vramHeadroomMiB: 100_000 }
    const specs: SampleSpec[] = recorded.map((r, i) => ({
      time: i * 250,
      gpu: {
        available: true,
        reason: null,
        backend: 'nvidia-smi',
        stale: false,
        sampledAt: i * 250,
        devices: [device({ memoryTotalMiB: 143771, memoryFreeMiB: r.free, temperatureC: r.temp, throttleReasons: r.reasons })],
      },
    }))
    const { raised, cleared } = transitionsOf(specs, 'live.vram-low', 'linux', settings)
    // Expected from the data: the 3rd consecutive sample under 100,000, and the 5th consecutive one at or above 100,256.
    const firstLow = recorded.findIndex((r, i) => i >= 2 && [0, 1, 2].every((k) => (recorded[i - k]?.free ?? Infinity) < 100_000))
    let clearAt = -1
    for (let i = firstLow + 5; i < recorded.length; i++)
      if ([0, 1, 2, 3, 4].every((k) => (recorded[i - k]?.free ?? 0) >= 100_256)) {
        clearAt = i
        break
      }
    expect(firstLow).toBeGreaterThan(0)
    expect(clearAt).toBeGreaterThan(firstLow)
    expect(raised).toEqual([firstLow])
    expect(cleared).toEqual([clearAt])
  })

  it('suggests a higher --n-cpu-moe from the fit, and the fix is applied to the stored profile', async () => {
    const store = await ProfileStore.open(home)
    const profile = importCommand(
      `/nowhere/llama-server -m ${seed.qwen36Path} -ngl 999 --n-cpu-moe 30 -c 65536 -np 1 --no-mmap -ctk q4_0 -ctv q4_0`,
      { name: 'qwen-8gb', takenIds: store.file.profiles.map((p) => p.id) },
    )
    await store.upsert(profile)
    const clock = { t: 0 }
    const advisor = newAdvisor(clock, 'win32')
    advisor.warnings(sample({ time: 0, profileId: profile.id }), SETTINGS)
    await advisor.settled()
    let last: Warning[] = []
    for (let i = 1; i <= 4; i++) {
      clock.t = i * 1000
      last = advisor.warnings(sample({ time: clock.t, profileId: profile.id, freeMiB: 700 }), SETTINGS)
    }
    const w = last.find((x) => x.rule === 'live.vram-low')
    expect(w?.reason).toMatch(/The fit suggests --n-cpu-moe (3[1-9]|40)/)
    expect(w?.fix?.removeArgs).toContain('--n-cpu-moe')
    // Needs ~836 MiB back; each step moves ~0.5 GB of experts: two steps.
    expect(w?.fix?.addArgs).toEqual(['--n-cpu-moe', '32'])
    // The running profile's lint comes with it (hybrid model, small KV: info).
    expect(last.some((x) => x.id === `lint.hybrid-kv-quant@${profile.id}` && x.source === 'lint')).toBe(true)
    const applied = await advisor.applyWarningFix(w?.id as string, home)
    expect(applied.ok).toBe(true)
    const again = await ProfileStore.open(home)
    expect(again.find(profile.id)?.settings.nCpuMoe).toBe(32)
  })
})

describe('the low-VRAM fix with its tok/s cost', () => {
  /** Finished requests of one profile at a generation rate, as the usage history gives them. */
  const requestsAt = (profileId: string, tokensPerSecond: number): HistoryRequest[] =>
    [1, 2, 3].map((i) => ({
      time: i,
      profileId,
      profileName: profileId,
      engine: null,
      engineVersion: null,
      model: null,
      path: '/v1/chat/completions',
      status: 200,
      promptTokens: 10,
      cachedTokens: 0,
      generatedTokens: 100,
      draftTokens: null,
      draftAccepted: null,
      promptPerSecond: 100,
      generationPerSecond: tokensPerSecond,
      ttftMs: 100,
      durationMs: 1000,
      energyJ: null,
      error: null,
    }))

  async function lowVramFix(sources: boolean): Promise<Warning['fix']> {
    const store = await ProfileStore.open(home)
    const line = `/nowhere/llama-server -m ${seed.qwen36Path} -ngl 999 -c 65536 -np 1 --no-mmap -ctk q4_0 -ctv q4_0`
    const taken = (): string[] => store.file.profiles.map((p) => p.id)
    const running = importCommand(`${line} --n-cpu-moe 30`, { name: 'costed', takenIds: taken() })
    await store.upsert(running)
    const other = importCommand(`${line} --n-cpu-moe 36`, { name: 'costed-36', takenIds: taken() })
    await store.upsert(other)
    // Measured here: 1 / (0.02 + 0.001·n) tok/s, so 20 at 30 and 17.9 at 36; 19.2 at 32, the fit's choice.
    const rates: Record<string, number> = { [running.id]: 20, [other.id]: 1 / 0.056 }
    const clock = { t: 0 }
    const advisor = new LiveAdvisor({
      home,
      now: () => clock.t,
      platform: 'win32',
      ...(sources ? { speedSources: () => ({ requests: async (id: string) => requestsAt(id, rates[id] ?? 0) }) } : {}),
    })
    advisor.warnings(sample({ time: 0, profileId: running.id }), SETTINGS)
    await advisor.settled()
    let last: Warning[] = []
    for (let i = 1; i <= 4; i++) {
      clock.t = i * 1000
      last = advisor.warnings(sample({ time: clock.t, profileId: running.id, freeMiB: 700 }), SETTINGS)
    }
    return last.find((x) => x.rule === 'live.vram-low')?.fix ?? null
  }

  it('says how much slower the placement is where rates at two --n-cpu-moe were measured, and nothing where not', async () => {
    const costed = await lowVramFix(true)
    expect(costed?.addArgs).toEqual(['--n-cpu-moe', '32'])
    expect(costed?.cost).toBe('about 0.8 tok/s slower (estimate)')
    const unknown = await lowVramFix(false)
    expect(unknown?.addArgs).toEqual(['--n-cpu-moe', '32'])
    expect(unknown?.cost).toBeUndefined()
  })
})

describe('lint.sleep-idle on a laptop', () => {
  it('suggests --sleep-idle-seconds when the GPU is a laptop part, not on a desktop, and the finding is mutable', async () => {
    const store = await ProfileStore.open(home)
    const profile = importCommand(`/nowhere/llama-server -m ${seed.qwen36Path} -c 4096 -np 1`, {
      name: 'sleepless',
      takenIds: store.file.profiles.map((p) => p.id),
    })
    await store.upsert(profile)
    const id = `lint.sleep-idle@${profile.id}`
    const lintOf = async (gpuName: string, advisor = newAdvisor({ t: 0 })): Promise<Warning | undefined> => {
      const gpu = {
        available: true,
        reason: null,
        backend: 'nvml' as const,
        stale: false,
        sampledAt: 0,
        devices: [device({ name: gpuName })],
      }
      advisor.warnings(sample({ time: 0, profileId: profile.id, gpu }), SETTINGS)
      await advisor.settled()
      return advisor.warnings(sample({ time: 1000, profileId: profile.id, gpu }), SETTINGS).find((w) => w.id === id)
    }
    const laptop = newAdvisor({ t: 0 })
    const w = await lintOf('NVIDIA GeForce RTX 4060 Laptop GPU', laptop)
    expect(w).toMatchObject({ level: 'info', source: 'lint', fix: { addArgs: ['--sleep-idle-seconds', '300'] } })
    expect(await lintOf('NVIDIA GeForce RTX 3090')).toBeUndefined()
    await laptop.mute(profile.id, 'lint.sleep-idle')
    expect(await lintOf('NVIDIA GeForce RTX 4060 Laptop GPU', laptop)).toBeUndefined()
    await laptop.unmute(profile.id, 'lint.sleep-idle')
  })

  it('re-lints once telemetry first names the GPU (the first samples may have none)', async () => {
    const store = await ProfileStore.open(home)
    const profile = importCommand(`/nowhere/llama-server -m ${seed.qwen36Path} -c 4096 -np 1`, {
      name: 'late-gpu',
      takenIds: store.file.profiles.map((p) => p.id),
    })
    await store.upsert(profile)
    const clock = { t: 0 }
    const advisor = newAdvisor(clock)
    const noGpu = { available: false, reason: 'not yet', backend: null, stale: false, sampledAt: null, devices: [] }
    advisor.warnings(sample({ time: 0, profileId: profile.id, gpu: noGpu }), SETTINGS)
    await advisor.settled()
    clock.t = 1000
    expect(
      advisor.warnings(sample({ time: 1000, profileId: profile.id, gpu: noGpu }), SETTINGS).some((w) => w.rule === 'lint.sleep-idle'),
    ).toBe(false)
    clock.t = 2000
    advisor.warnings(sample({ time: 2000, profileId: profile.id }), SETTINGS) // the replay's RTX 4060 Laptop GPU
    await advisor.settled()
    clock.t = 3000
    expect(advisor.warnings(sample({ time: 3000, profileId: profile.id }), SETTINGS).some((w) => w.rule === 'lint.sleep-idle')).toBe(true)
  })
})

describe("the running profile's lint, rechecked", () => {
  it('re-lints a profile edited outside the advisor at the next recheck, and skips rechecks of an unchanged file', async () => {
    const store = await ProfileStore.open(home)
    const profile = importCommand(`/nowhere/llama-server -m ${seed.qwen36Path} -c 4096 -np 1`, {
      name: 'edited-later',
      takenIds: store.file.profiles.map((p) => p.id),
    })
    await store.upsert(profile)
    const clock = { t: 0 }
    const advisor = new LiveAdvisor({ home, now: () => clock.t, platform: 'linux' })
    const sleepLint = async (t: number): Promise<boolean> => {
      clock.t = t
      advisor.warnings(sample({ time: t, profileId: profile.id }), SETTINGS)
      await advisor.settled()
      return advisor.warnings(sample({ time: t, profileId: profile.id }), SETTINGS).some((w) => w.rule === 'lint.sleep-idle')
    }
    expect(await sleepLint(0)).toBe(true)
    expect(await sleepLint(2000)).toBe(true) // unchanged file: the same facts
    const edited = importCommand(`/nowhere/llama-server -m ${seed.qwen36Path} -c 4096 -np 1 --sleep-idle-seconds 600`, {
      name: 'edited-later',
      takenIds: [],
    })
    await (await ProfileStore.open(home)).upsert({ ...edited, id: profile.id, updatedAt: new Date(Date.now() + 1000).toISOString() })
    expect(await sleepLint(4000)).toBe(false) // the edit is seen at the next recheck
    // An edit by another process (written straight to the file, not through this process's store)
    // reaches the advisor through the store's folder watch: no stat poll of profiles.json.
    const file = JSON.parse(await readFile(join(home, 'profiles.json'), 'utf8')) as ProfilesFile
    const original = (await ProfileStore.open(home)).find(profile.id) as Profile
    file.profiles = file.profiles.map((p) =>
      p.id === profile.id
        ? { ...original, extraArgs: [], settings: profile.settings, updatedAt: new Date(Date.now() + 2000).toISOString() }
        : p,
    )
    const seen = new Promise<void>((done) => {
      const off = store.onDidChange(() => {
        off()
        done()
      })
    })
    await writeFile(join(home, 'profiles.json'), JSON.stringify(file))
    await seen
    expect(await sleepLint(6000)).toBe(true)
  })
})

describe('live.heavy-apps', () => {
  const discord = { name: 'Discord', pids: [7], cpuPct: 42 }
  it('raises after 2 samples while generating, names the apps and their CPU, clears 3 samples after they stop', () => {
    const specs = seq(0, [
      ...times(3, { active: true, tokensPerSecond: 18 }),
      ...times(4, { active: true, tokensPerSecond: 8, heavyApps: [discord, { name: 'Chrome', pids: [8, 9], cpuPct: 12.4 }] }),
      ...times(4, { active: true, tokensPerSecond: 18 }),
    ])
    const { raised, cleared, out } = transitionsOf(specs, 'live.heavy-apps')
    expect(raised).toEqual([4])
    expect(cleared).toEqual([9])
    expect(out[4]?.find((w) => w.rule === 'live.heavy-apps')).toMatchObject({
      headline: 'Discord (42% CPU) and Chrome (12% CPU) are running while llama-server generates.',
      reason: expect.stringMatching(/^With experts on the CPU .*~6 to ~18 tok\/s\.$/),
    })
  })

  it('stays silent for idle apps (under 5% CPU) and when nothing was generated for 30 s', () => {
    expect(
      transitionsOf(
        seq(0, times(10, { active: true, tokensPerSecond: 18, heavyApps: [{ name: 'Chrome', pids: [1], cpuPct: 2 }] })),
        'live.heavy-apps',
      ).raised,
    ).toEqual([])
    expect(transitionsOf(seq(0, times(10, { active: false, heavyApps: [discord] })), 'live.heavy-apps').raised).toEqual([])
    const late = transitionsOf(
      [
        ...seq(0, times(3, { active: true, tokensPerSecond: 18, heavyApps: [discord] })),
        ...seq(40_000, times(4, { active: false, heavyApps: [discord] })),
      ],
      'live.heavy-apps',
    )
    expect(late.raised).toEqual([1])
    expect(late.cleared).toEqual([5])
  })
})

describe('live.speed-drop', () => {
  it('raises after 10 s under 60% of the median with the likely cause, holds until 75%, clears after 3 samples', () => {
    const hot = { heavyApps: [{ name: 'Discord', pids: [7], cpuPct: 55 }] }
    const specs = seq(0, [
      ...times(5, { active: true, tokensPerSecond: 40, rollingMedian: 40 }),
      ...times(14, { active: true, tokensPerSecond: 20, rollingMedian: 40, ...hot }),
      ...times(3, { active: true, tokensPerSecond: 28, rollingMedian: 40 }),
      ...times(4, { active: true, tokensPerSecond: 39, rollingMedian: 40 }),
    ])
    const { raised, cleared, out } = transitionsOf(specs, 'live.speed-drop')
    expect(raised).toEqual([15]) // the 11th slow sample: 10 s after the first
    expect(cleared).toEqual([24])
    expect(out[15]?.find((w) => w.rule === 'live.speed-drop')).toMatchObject({
      headline: "Generation is at 20.0 tok/s, 50% of this profile's recent median (40.0 tok/s).",
      reason: 'Likely cause: CPU-heavy apps: Discord (55% CPU).',
    })
  })

  it('counts slow generation across the short gaps between back-to-back requests, not across a long idle spell', () => {
    // Short requests: one second generating, one second between requests (a finished request just before).
    const slow = { active: true, tokensPerSecond: 20, rollingMedian: 40 }
    const gap = { active: false, rollingMedian: 40, lastPrompt: { tokens: 5, tokensPerSecond: 100 } }
    const specs = seq(0, [
      ...times(3, { active: true, tokensPerSecond: 40, rollingMedian: 40 }),
      ...Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? slow : gap)),
    ])
    // Each gap sample has a request that just finished: the gaps carry the evidence over.
    const t = transitionsOf(specs, 'live.speed-drop')
    expect(t.raised).toEqual([13]) // the 6th slow sample, 10 s after the first
    // A gap far from any finished request (an idle server) resets the streak.
    const idle = { active: false, rollingMedian: 40 }
    const reset = seq(0, [...times(4, slow), idle, ...times(4, slow)])
    expect(transitionsOf(reset, 'live.speed-drop').raised).toEqual([])
  })

  it('offers one thread fewer when CPU-heavy apps are the likely cause', () => {
    const hot = { heavyApps: [{ name: 'Discord', pids: [7], cpuPct: 55 }] }
    const slowSamples = (over: Partial<SampleSpec>) =>
      seq(0, [
        ...times(3, { active: true, tokensPerSecond: 40, rollingMedian: 40 }),
        ...times(14, { active: true, tokensPerSecond: 10, rollingMedian: 40, ...over }),
      ])
    const fixOf = (over: Partial<SampleSpec>) =>
      transitionsOf(slowSamples(over), 'live.speed-drop')
        .out.at(-1)
        ?.find((w) => w.rule === 'live.speed-drop')?.fix ?? null
    expect(fixOf({ ...hot, threads: 8 })).toEqual({
      label: 'Leave a core to other apps (-t 7)',
      removeArgs: ['-t', '--threads'],
      addArgs: ['-t', '7'],
    })
    // No heavy app (nothing takes a core), one thread already, or a fork that does not say: no such fix.
    expect(fixOf({ threads: 8 })).toBeNull()
    expect(fixOf({ ...hot, threads: 1 })).toBeNull()
    expect(fixOf(hot)).toBeNull()
  })

  it('is silent without a median, while idle, and above 60%', () => {
    expect(transitionsOf(seq(0, times(20, { active: true, tokensPerSecond: 5 })), 'live.speed-drop').raised).toEqual([])
    expect(transitionsOf(seq(0, times(20, { active: true, tokensPerSecond: 25, rollingMedian: 40 })), 'live.speed-drop').raised).toEqual([])
    expect(transitionsOf(seq(0, times(20, { active: false, rollingMedian: 40 })), 'live.speed-drop').raised).toEqual([])
  })

  it('without finished requests, uses the median of its own live samples (30 or more)', () => {
    const specs = seq(0, [...times(40, { active: true, tokensPerSecond: 100 }), ...times(12, { active: true, tokensPerSecond: 30 })])
    expect(transitionsOf(specs, 'live.speed-drop').raised).toEqual([50])
  })
})

describe('GPU throttling and temperature', () => {
  it('raises on thermal clock events (not on the power cap a busy GPU normally sits at)', () => {
    const t = transitionsOf(
      seq(0, [
        ...times(4, { throttleReasons: ['sw_power_cap'] }),
        ...times(4, { throttleReasons: ['hw_thermal_slowdown', 'sw_power_cap'] }),
        ...times(6, {}),
      ]),
      'live.gpu-throttle',
    )
    expect(t.raised).toEqual([6])
    expect(t.cleared).toEqual([12])
    expect(t.out[6]?.find((w) => w.rule === 'live.gpu-throttle')?.headline).toContain('hw_thermal_slowdown')
  })

  it('raises above the temperature threshold and clears 3 °C below it', () => {
    const t = transitionsOf(
      seq(0, [
        ...times(3, { temperatureC: 80 }),
        ...times(3, { temperatureC: 86 }),
        ...times(5, { temperatureC: 83 }),
        ...times(5, { temperatureC: 81 }),
      ]),
      'live.gpu-hot',
    )
    expect(t.raised).toEqual([5])
    expect(t.cleared).toEqual([15])
  })
})

describe('server failures', () => {
  it('a failed start is an error at once, with the diagnosis and the lint fix for a rejected flag', async () => {
    const store = await ProfileStore.open(home)
    const binary = llamaServerBin()
    const profile = importCommand(`${binary} -m /nowhere/m.gguf --no-mmap -c 4096 -np 1`, {
      name: 'old-flags',
      takenIds: store.file.profiles.map((p) => p.id),
    })
    await store.upsert(profile)
    const mainlineHelp = readFileSync(join(FIXTURES, 'llama-server', 'responses', 'llama-server-help.txt'), 'utf8')
    const version = readFileSync(join(FIXTURES, 'llama-server', 'responses', 'version.txt'), 'utf8')
    const { forkFromOutput } = await import('../profiles/fork-detect')
    const clock = { t: 0 }
    const advisor = new LiveAdvisor({
      home,
      now: () => clock.t,
      platform: 'linux',
      detect: async (_h, b) => forkFromOutput(b, mainlineHelp, version),
    })
    const exit = {
      code: 1,
      signal: null,
      reason: 'llama-server does not accept --no-mmap (removed)',
      hint: 'use --load-mode none (-lm none)',
      kind: 'flag-removed' as const,
      problem: null,
    }
    advisor.warnings(sample({ time: 0, profileId: profile.id, state: 'starting' }), SETTINGS)
    await advisor.settled()
    clock.t = 1000
    const w = advisor.warnings(sample({ time: 1000, profileId: profile.id, state: 'errored', lastExit: exit }), SETTINGS)
    const failed = w.find((x) => x.rule === 'live.server-failed')
    expect(failed).toMatchObject({
      level: 'error',
      since: 1000,
      headline: 'Llama-server does not accept --no-mmap (removed).',
      reason: 'Llama-server failed to start. Use --load-mode none (-lm none).',
    })
    expect(failed?.fix).toMatchObject({ removeArgs: ['--no-mmap'], addArgs: ['-lm', 'none'] })
    expect(w[0]?.rule).toBe('live.server-failed')
    clock.t = 2000
    expect(
      advisor
        .warnings(sample({ time: 2000, profileId: profile.id, state: 'starting' }), SETTINGS)
        .some((x) => x.rule === 'live.server-failed'),
    ).toBe(false)
  })

  it('a crash loop is an error; backoff is a warning that holds through the restart until ready', () => {
    const crash = {
      code: null,
      signal: 'SIGSEGV',
      reason: 'llama-server crashed (SIGSEGV)',
      hint: null,
      kind: 'crashed' as const,
      problem: null,
    }
    const t = transitionsOf(
      seq(0, [
        {},
        { state: 'backoff', lastExit: crash },
        { state: 'starting' },
        { state: 'loading' },
        { state: 'ready' },
        { state: 'crashloop', lastExit: crash, restarts: 4 },
      ]),
      'live.server-restarting',
    )
    expect(t.raised).toEqual([1])
    expect(t.cleared).toEqual([4])
    const loop = transitionsOf(seq(0, [{}, { state: 'crashloop', lastExit: crash, restarts: 4 }]), 'live.server-failed')
    expect(loop.out[1]?.find((w) => w.rule === 'live.server-failed')).toMatchObject({
      headline: 'Llama-server crashed (SIGSEGV).',
      reason: 'Llama-server crashed 5 times in a row; Llama Tray stopped restarting it.',
    })
  })
})

describe('Windows sysmem fallback (from a shared-GPU-memory source; telemetry does not read PDH yet)', () => {
  it('raises when VRAM is nearly full and shared usage grew by more than 256 MiB since 10 s after the load', () => {
    const clock = { t: 0 }
    const shared = { mib: 300 }
    const advisor = new LiveAdvisor({ home, now: () => clock.t, platform: 'win32', sharedGpuMemoryMiB: () => shared.mib })
    const raisedAt: number[] = []
    for (let i = 0; i < 30; i++) {
      clock.t = i * 1000
      if (i >= 15) shared.mib = 300 + (i - 14) * 200
      const free = i >= 15 ? 120 : 2000
      const w = advisor.warnings(sample({ time: clock.t, freeMiB: free }), SETTINGS)
      if (w.some((x) => x.rule === 'live.sysmem-fallback')) raisedAt.push(i)
    }
    // Growth passes 256 MiB at sample 16 (+400); the third such sample is 18.
    expect(raisedAt[0]).toBe(18)
    const linux = transitionsOf(seq(0, times(30, { freeMiB: 100 })), 'live.sysmem-fallback')
    expect(linux.raised).toEqual([])
  })
})

describe('live.prompt-slow', () => {
  it('raises on a long prompt under 60% of the usual speed, holds through short prompts, clears on a normal long one', () => {
    const usual = { tokensPerSecond: 450, count: 8 }
    const specs = seq(0, [
      ...times(3, { lastPrompt: { tokens: 2000, tokensPerSecond: 440 }, longPromptMedian: usual }),
      ...times(4, { lastPrompt: { tokens: 2000, tokensPerSecond: 200 }, longPromptMedian: usual }),
      ...times(4, { lastPrompt: { tokens: 20, tokensPerSecond: 60 }, longPromptMedian: usual }),
      ...times(4, { lastPrompt: { tokens: 1800, tokensPerSecond: 420 }, longPromptMedian: usual }),
    ])
    const { raised, cleared, out } = transitionsOf(specs, 'live.prompt-slow')
    expect(raised).toEqual([4])
    expect(cleared).toEqual([12])
    expect(out[5]?.find((w) => w.rule === 'live.prompt-slow')).toMatchObject({
      headline: "The last prompt was processed at 200 tok/s, 44% of this profile's usual 450 tok/s.",
      reason: expect.stringMatching(
        new RegExp(
          String.raw`^It had 2000 tokens; the usual speed is the median of this profile's 8 recent prompts of 256 tokens or more\. ` +
            String.raw`Prompt speed can break alone .*likely cause: .*\.$`,
        ),
      ),
    })
  })

  it('needs five long prompts of this profile before it judges one', () => {
    const specs = seq(
      0,
      times(6, { lastPrompt: { tokens: 2000, tokensPerSecond: 100 }, longPromptMedian: { tokensPerSecond: 450, count: 4 } }),
    )
    expect(transitionsOf(specs, 'live.prompt-slow').raised).toEqual([])
  })
})

describe('mutes and profiles', () => {
  it('a muted rule is not shown for that profile (and is for another); the mute is stored', async () => {
    const clock = { t: 0 }
    const advisor = newAdvisor(clock)
    await advisor.mute('p', 'live.gpu-hot')
    const hot = (profileId: string): boolean => {
      let shown = false
      for (let i = 0; i < 5; i++) {
        clock.t += 1000
        shown = advisor.warnings(sample({ time: clock.t, profileId, temperatureC: 90 }), SETTINGS).some((w) => w.rule === 'live.gpu-hot')
      }
      return shown
    }
    expect(hot('p')).toBe(false)
    expect(hot('q')).toBe(true)
    const reopened = newAdvisor(clock)
    expect(reopened.mutes.list('p')).toEqual(['live.gpu-hot'])
    await reopened.unmute('p', 'live.gpu-hot')
    expect(newAdvisor(clock).mutes.list('p')).toEqual([])
  })
})

describe('a noisy signal hovering at a threshold', () => {
  /** The most raises of one rule inside any 60 s window. */
  function maxRaisesPerMinute(raisedTimes: readonly number[]): number {
    let best = 0
    for (let i = 0; i < raisedTimes.length; i++)
      best = Math.max(best, raisedTimes.filter((t) => t >= (raisedTimes[i] as number) && t < (raisedTimes[i] as number) + 60_000).length)
    return best
  }

  it('raises at most once a minute: VRAM, temperature and speed noise around their thresholds (200 runs × 10 minutes at 1 Hz)', () => {
    let raises = 0
    let worst = 0
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 600, maxLength: 600 }),
        fc.integer({ min: 50, max: 600 }),
        (noise, amplitude) => {
          const clock = { t: 0 }
          const advisor = newAdvisor(clock, 'win32')
          const raised = new Map<string, number[]>()
          const up = new Set<string>()
          noise.forEach((n, i) => {
            clock.t = i * 1000
            const s: LiveSnapshot = sample({
              time: clock.t,
              freeMiB: SETTINGS.vramHeadroomMiB + n * amplitude,
              temperatureC: Math.round(SETTINGS.gpuTemperatureWarnC + n * (amplitude / 60)),
              active: true,
              tokensPerSecond: 40 * (0.6 + n * (amplitude / 1500)),
              rollingMedian: 40,
            })
            const now = new Set(advisor.warnings(s, SETTINGS).map((w) => w.rule as string))
            for (const r of now) if (!up.has(r)) raised.set(r, [...(raised.get(r) ?? []), clock.t])
            up.clear()
            for (const r of now) up.add(r)
          })
          for (const [, list] of raised) {
            raises += list.length
            worst = Math.max(worst, maxRaisesPerMinute(list))
          }
          return worst <= 1
        },
      ),
      { numRuns: 200 },
    )
    // Not vacuous: the noise does raise warnings, just never twice in a minute.
    expect(raises).toBeGreaterThan(200)
    expect(worst).toBe(1)
  })
})
