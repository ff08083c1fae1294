import { describe, expect, it } from 'vitest'
import { adapterLuid, dedicatedByAdapter, dedicatedByPid, engine3dByPid, parseGpuInstance, pickNvidiaLuid } from './pdh-gpu-process-parsing'
import { PdhGpuProcesses } from './pdh-gpu-processes'
import type { PdhItem } from './pdh-parsing'

const MIB = 1024 * 1024
// An Optimus laptop: the Intel iGPU (0x0000D1F0) drives the display, the NVIDIA GPU is 0x0001AF02.
const NV = 'luid_0x00000000_0x0001AF02'
const IGPU = 'luid_0x00000000_0x0000D1F0'
const mem = (pid: number, luid: string, mib: number, status = 0): PdhItem => ({
  name: `pid_${pid}_${luid}_phys_0`,
  status,
  value: BigInt(mib) * BigInt(MIB),
})
const eng = (pid: number, luid: string, n: number, type: string, pct: number, status = 0): PdhItem => ({
  name: `pid_${pid}_${luid}_phys_0_eng_${n}_engtype_${type}`,
  status,
  value: pct,
})

describe('PDH per-process GPU instances', () => {
  it('takes the instance names apart (memory, engine, adapter, others)', () => {
    expect(parseGpuInstance('pid_15320_luid_0x00000000_0x0001AF02_phys_0_eng_0_engtype_3D')).toEqual({
      pid: 15320,
      luid: 'luid_0x00000000_0x0001af02',
      phys: 0,
      engine: 0,
      engineType: '3D',
    })
    expect(parseGpuInstance('pid_4_luid_0x00000000_0x0001AF02_phys_0_eng_5_engtype_Compute_0')?.engineType).toBe('Compute_0')
    expect(parseGpuInstance('pid_15320_luid_0x00000000_0x0001AF02_phys_0')).toMatchObject({ pid: 15320, engine: null, engineType: null })
    expect(parseGpuInstance('luid_0x00000000_0x0001AF02_phys_0')).toBeNull()
    expect(parseGpuInstance('_Total')).toBeNull()
    expect(adapterLuid('luid_0x00000000_0x0001AF02_phys_0')).toBe('luid_0x00000000_0x0001af02')
    expect(adapterLuid('pid_1_luid_0x00000000_0x0001AF02_phys_0')).toBeNull()
  })

  it("sums a process's dedicated memory and 3D use on the NVIDIA adapter only, skipping invalid items", () => {
    const luid = NV.toLowerCase()
    const memory = [mem(15320, NV, 5120), mem(15320, IGPU, 90), mem(900, NV, 300), mem(901, NV, 999, 0xc0000bba)]
    expect(dedicatedByPid(memory, luid)).toEqual(
      new Map([
        [15320, 5120],
        [900, 300],
      ]),
    )
    const engines = [
      eng(15320, NV, 0, '3D', 87),
      eng(15320, NV, 3, 'Copy', 40),
      eng(15320, IGPU, 0, '3D', 12),
      eng(900, NV, 0, '3D', 70),
      eng(900, NV, 1, '3D', 50),
      eng(901, NV, 0, '3D', 99, 0xc0000bba), // the first read of a rate counter
    ]
    expect(engine3dByPid(engines, luid)).toEqual(
      new Map([
        [15320, 87],
        [900, 100],
      ]),
    )
  })

  it('tells the NVIDIA adapter apart by the memory NVML reports used, else as the only discrete-sized one', () => {
    const adapters = dedicatedByAdapter([
      { name: `${IGPU}_phys_0`, status: 0, value: 128n * BigInt(MIB) },
      { name: `${NV}_phys_0`, status: 0, value: 6400n * BigInt(MIB) },
    ])
    expect(pickNvidiaLuid(adapters, 6500)).toBe('luid_0x00000000_0x0001af02')
    expect(pickNvidiaLuid(adapters, null)).toBe('luid_0x00000000_0x0001af02')
    // NVML says 140 MiB used (the GPU is nearly idle): the iGPU's 128 MiB is nearer, but both are within reach: no guess.
    const idle = new Map([
      ['a', 128],
      ['b', 200],
    ])
    expect(pickNvidiaLuid(idle, 140)).toBeNull()
    expect(
      pickNvidiaLuid(
        new Map([
          ['a', 700],
          ['b', 900],
        ]),
        null,
      ),
    ).toBeNull()
  })
})

describe('PdhGpuProcesses over a fake query', () => {
  it('reads processes on the NVIDIA adapter, their 3D use unknown until the rate counter has two samples', async () => {
    let collects = 0
    const query = {
      lastProblem: null,
      collect: () => ++collects > 0,
      items: (i: number): PdhItem[] =>
        i === 0
          ? [mem(15320, NV, 5120), mem(77, IGPU, 50)]
          : i === 1
            ? [eng(15320, NV, 0, '3D', 91, collects === 1 ? 0xc0000bba : 0)]
            : [
                { name: `${NV}_phys_0`, status: 0, value: 6000n * BigInt(MIB) },
                { name: `${IGPU}_phys_0`, status: 0, value: 100n * BigInt(MIB) },
              ],
      close: () => {},
    }
    const source = new PdhGpuProcesses({ nvidiaUsedMiB: () => 6100, open: () => query })
    expect(await source.read()).toEqual([{ pid: 15320, name: null, dedicatedMiB: 5120, engine3dPct: null }])
    expect(await source.read()).toEqual([{ pid: 15320, name: null, dedicatedMiB: 5120, engine3dPct: 91 }])
  })

  it('says why when the counters are missing (Wine)', async () => {
    const source = new PdhGpuProcesses({ nvidiaUsedMiB: () => null, open: () => 'the counter … is not available: PDH_CSTATUS_NO_COUNTER' })
    expect(await source.read()).toBeNull()
    expect(source.problem).toMatch(/PDH_CSTATUS_NO_COUNTER/)
  })
})
