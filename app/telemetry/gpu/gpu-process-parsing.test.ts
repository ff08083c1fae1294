import { describe, expect, it } from 'vitest'
import { NVML_PROCESS_INFO_SIZE, decodeNvmlProcessInfos, mergeNvmlProcesses, parseComputeApps } from './gpu-process-parsing'

describe("NVML's nvmlProcessInfo_t and nvidia-smi's compute apps", () => {
  it('decodes the 24-byte entries, "not available" memory as null', () => {
    const buf = Buffer.alloc(3 * NVML_PROCESS_INFO_SIZE)
    buf.writeUInt32LE(4242, 0)
    buf.writeBigUInt64LE(5120n * 1024n * 1024n, 8)
    buf.writeUInt32LE(900, 24)
    buf.writeBigUInt64LE(0xffffffffffffffffn, 32)
    expect(decodeNvmlProcessInfos(buf, 2)).toEqual([
      { pid: 4242, usedMiB: 5120 },
      { pid: 900, usedMiB: null },
    ])
    expect(decodeNvmlProcessInfos(buf.subarray(0, 30), 2)).toHaveLength(1) // a short buffer gives what fits
    expect(
      mergeNvmlProcesses([
        [{ pid: 1, usedMiB: null }],
        [
          { pid: 1, usedMiB: 40 },
          { pid: 2, usedMiB: 3 },
        ],
      ]),
    ).toEqual([
      { pid: 1, usedMiB: 40 },
      { pid: 2, usedMiB: 3 },
    ])
  })

  it('parses --query-compute-apps lines: the last part of the path, N/A memory as null, odd lines skipped', () => {
    const out = [
      '4242, /usr/bin/python3, 5120',
      '15320, C:\\Games\\Cyberpunk 2077\\bin\\x64\\Cyberpunk2077.exe, [N/A]',
      '77, /opt/odd, name/app, 12',
      'No running processes found',
      '',
    ].join('\n')
    expect(parseComputeApps(out)).toEqual([
      { pid: 4242, name: 'python3', dedicatedMiB: 5120, engine3dPct: null },
      { pid: 15320, name: 'Cyberpunk2077.exe', dedicatedMiB: null, engine3dPct: null },
      { pid: 77, name: 'app', dedicatedMiB: 12, engine3dPct: null },
    ])
  })
})
