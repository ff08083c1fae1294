import { describe, expect, it } from 'vitest'
import { gpuUseByPid, parseGpuInstance } from './pdh-gpu-use'

const NVIDIA = 'luid_0x00000000_0x0000C2A1'
const INTEL = 'luid_0x00000000_0x0000B0F3'
const MIB = 1024 * 1024

describe('per-process GPU use from PDH (fixture counter items)', () => {
  it('parses engine and process-memory instance names', () => {
    expect(parseGpuInstance(`pid_4242_${NVIDIA}_phys_0_eng_0_engtype_3D`)).toEqual({ pid: 4242, luid: NVIDIA.toLowerCase(), engtype: '3D' })
    expect(parseGpuInstance(`pid_7_${NVIDIA}_phys_0`)).toEqual({ pid: 7, luid: NVIDIA.toLowerCase(), engtype: null })
    expect(parseGpuInstance(`${NVIDIA}_phys_0`)).toBeNull()
  })

  it('takes the busiest 3D engine and the dedicated memory of each process on the NVIDIA adapter only', () => {
    const engines = [
      { name: `pid_100_${NVIDIA}_phys_0_eng_0_engtype_3D`, status: 0, value: 87 },
      { name: `pid_100_${NVIDIA}_phys_0_eng_1_engtype_3D`, status: 0, value: 12 },
      { name: `pid_100_${NVIDIA}_phys_0_eng_4_engtype_Copy`, status: 0, value: 99 },
      { name: `pid_200_${INTEL}_phys_0_eng_0_engtype_3D`, status: 0, value: 60 }, // the browser on the integrated GPU
      { name: `pid_300_${NVIDIA}_phys_0_eng_0_engtype_3D`, status: 0, value: 250 }, // a bogus value, held to 100
      { name: `pid_400_${NVIDIA}_phys_0_eng_0_engtype_3D`, status: 0xc0000bc6, value: 50 }, // no data
    ]
    const memory = [
      { name: `pid_100_${NVIDIA}_phys_0`, status: 0, value: 5200 * MIB },
      { name: `pid_200_${INTEL}_phys_0`, status: 0, value: 900 * MIB },
      { name: `pid_500_${NVIDIA}_phys_0`, status: 1, value: BigInt(300 * MIB) },
    ]
    expect(gpuUseByPid(engines, memory, NVIDIA)).toEqual(
      new Map([
        [100, { threeDPct: 87, dedicatedMiB: 5200 }],
        [300, { threeDPct: 100, dedicatedMiB: 0 }],
        [500, { threeDPct: 0, dedicatedMiB: 300 }],
      ]),
    )
  })
})
