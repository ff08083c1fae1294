import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { TelemetryService, type SharedGpuSource } from '../../telemetry/telemetry-service'
import type { Koffi } from '../koffi'
import { describePdhStatus, pidOfInstance, sharedUsageByAdapter, sharedUsageByPid } from './pdh-parsing'
import { PdhSharedGpuMemory, counterItemType } from './pdh-shared-memory'

const MIB = 1024 * 1024

describe('PDH GPU memory counters: parsing', () => {
  it('sums a process over its adapters and skips invalid items and other names', () => {
    const items = [
      { name: 'pid_4242_luid_0x00000000_0x0000C2A1_phys_0', status: 0, value: 700n * BigInt(MIB) },
      { name: 'pid_4242_luid_0x00000000_0x0000D1F0_phys_0', status: 1, value: 12 * MIB },
      // PDH_CSTATUS_INVALID_DATA: ignored
      { name: 'pid_4242_luid_0x00000000_0x0000E000_phys_0', status: 0xc0000bba, value: 5000n * BigInt(MIB) },
      { name: 'pid_77_luid_0x00000000_0x0000C2A1_phys_0', status: 0, value: 0n },
      { name: '_Total', status: 0, value: 1n },
    ]
    expect(sharedUsageByPid(items)).toEqual(
      new Map([
        [4242, 712],
        [77, 0],
      ]),
    )
    expect(pidOfInstance('pid_1_luid_0x0_0x1_phys_0')).toBe(1)
    expect(pidOfInstance('luid_0x00000000_0x0000C2A1_phys_0')).toBeNull()
  })

  it('reads adapter instances by LUID and node', () => {
    const items = [
      { name: 'luid_0x00000000_0x0000C2A1_phys_0', status: 0, value: 1536n * BigInt(MIB) },
      { name: 'pid_4242_luid_0x00000000_0x0000C2A1_phys_0', status: 0, value: 1n },
    ]
    expect(sharedUsageByAdapter(items)).toEqual(new Map([['luid_0x00000000_0x0000c2a1_phys_0', 1536]]))
  })

  it('names PDH status codes, as Wine returns them for the missing GPU counters', () => {
    expect(describePdhStatus(0xc0000bb9)).toBe(
      'PDH_CSTATUS_NO_COUNTER (0xC0000BB9): this Windows has no GPU memory counters (Windows 10 1709 or later with a WDDM 2 driver has ' +
        'them)',
    )
    expect(describePdhStatus(-1073738823)).toMatch(/^PDH_CSTATUS_NO_COUNTER \(0xC0000BB9\)/) // the same code as a signed int
    expect(describePdhStatus(0x1234)).toBe('PDH error 0x00001234')
  })

  it("lays PDH_FMT_COUNTERVALUE_ITEM_W out as Windows x64 does (koffi's struct: name pointer, status, 8-aligned value)", () => {
    const koffi = createRequire(import.meta.url)('koffi') as Koffi
    const type = counterItemType(koffi)
    expect(koffi.sizeof(type)).toBe(24)
    expect([koffi.offsetof(type, 'szName'), koffi.offsetof(type, 'CStatus'), koffi.offsetof(type, 'largeValue')]).toEqual([0, 8, 16])
  })
})

describe('PDH binding: failing gracefully', () => {
  it('gives the reason when koffi or pdh.dll is missing (Linux has no pdh.dll)', () => {
    expect(PdhSharedGpuMemory.open(() => 'koffi (the FFI module) could not be loaded: x')).toBe(
      'koffi (the FFI module) could not be loaded: x',
    )
    const koffi = createRequire(import.meta.url)('koffi') as Koffi
    expect(PdhSharedGpuMemory.open(() => koffi)).toMatch(/^pdh\.dll unavailable: /)
  })

  it('gives the counter and the PDH status when a counter is missing, and closes the query', () => {
    const calls: string[] = []
    const lib = {
      func: (decl: string) => {
        const name = /(Pdh\w+)\(/.exec(decl)?.[1] as string
        return (...args: unknown[]) => {
          calls.push(name)
          if (name === 'PdhOpenQueryW') {
            ;(args[2] as unknown[])[0] = 1n
            return 0
          }
          if (name === 'PdhAddEnglishCounterW') return 0xc0000bb9 // what Wine 8 answers
          return 0
        }
      },
    }
    const fake = { load: () => lib, struct: () => ({}) } as unknown as Koffi
    expect(PdhSharedGpuMemory.open(() => fake)).toBe(
      'the counter \\GPU Process Memory(*)\\Shared Usage is not available: PDH_CSTATUS_NO_COUNTER (0xC0000BB9): this Windows has no ' +
        'GPU memory counters (Windows 10 1709 or later with a WDDM 2 driver has them)',
    )
    expect(calls).toEqual(['PdhOpenQueryW', 'PdhAddEnglishCounterW', 'PdhCloseQuery'])
  })
})

describe('TelemetryService: shared GPU memory of the server', () => {
  it('samples the source only while a server pid is set, and reports 0 for a pid PDH does not list', async () => {
    let samples = 0
    const source: SharedGpuSource = {
      lastProblem: null,
      sample: () => {
        samples++
        return { byPid: new Map([[4242, 640]]), byAdapter: new Map() }
      },
      close: () => {},
    }
    const telemetry = new TelemetryService({ gpuBackend: 'off', processes: null, intervalMs: 10_000, sharedGpu: () => source })
    await telemetry.start()
    try {
      expect(telemetry.sharedGpuMemoryMiB(4242)).toBeNull() // no server yet: not sampled
      expect(samples).toBe(0)
      telemetry.setServerPid(4242)
      ;(telemetry as unknown as { tick(): void }).tick()
      expect(telemetry.sharedGpuMemoryMiB(4242)).toBe(640)
      expect(telemetry.sharedGpuMemoryMiB(1)).toBe(0)
      telemetry.setServerPid(null)
      expect(telemetry.sharedGpuMemoryMiB(4242)).toBeNull()
    } finally {
      await telemetry.stop()
    }
  })

  it('says why when there is no source', async () => {
    const telemetry = new TelemetryService({
      gpuBackend: 'off',
      processes: null,
      intervalMs: 10_000,
      sharedGpu: () => 'the counter … is not available: PDH_CSTATUS_NO_COUNTER',
    })
    await telemetry.start()
    telemetry.setServerPid(4242)
    expect(telemetry.sharedGpuMemoryMiB(4242)).toBeNull()
    expect(telemetry.sharedGpuProblem).toMatch(/PDH_CSTATUS_NO_COUNTER/)
    await telemetry.stop()
  })
})
