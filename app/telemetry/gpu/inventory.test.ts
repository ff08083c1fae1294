import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { isAlive, waitFor } from '../../../test/support/telemetry/fake-smi-env'
import { fakeSmiDir } from '../../../test/support/telemetry/paths'
import { inventoryFromSmiXmlJson, readGpuInventory } from './inventory'

const oldPath = process.env.PATH
afterEach(() => {
  process.env.PATH = oldPath
  delete process.env.FAKE_SMI
  delete process.env.FAKE_SMI_HANG_MAX_MS
})

describe('GPU inventory from nvidia-smi -q -x', () => {
  it('reads the real H200 -q -x replayed by the fake nvidia-smi', async () => {
    process.env.PATH = `${fakeSmiDir}${path.delimiter}${oldPath ?? ''}`
    expect(await readGpuInventory()).toEqual({
      driverVersion: '580.159.04',
      cudaVersion: '13.0',
      gpus: [
        {
          index: 0,
          productName: 'NVIDIA H200',
          uuid: 'GPU-c429f8b9-91e9-a0f0-10c5-3e902535ab05',
          driverModel: null,
          memoryTotalMiB: 143771,
        },
      ],
    })
  })

  it('turns a failing or hanging nvidia-smi into an error', async () => {
    process.env.PATH = `${fakeSmiDir}${path.delimiter}${oldPath ?? ''}`
    process.env.FAKE_SMI = 'no-driver'
    expect(await readGpuInventory()).toMatchObject({ error: expect.stringContaining('nvidia-smi -q -x failed') })
    process.env.FAKE_SMI = 'hang'
    process.env.FAKE_SMI_HANG_MAX_MS = '600000'
    const pidDir = mkdtempSync(path.join(tmpdir(), 'fake-smi-pids-'))
    process.env.FAKE_SMI_PID_DIR = pidDir
    try {
      const error = 'nvidia-smi did not answer within 0.3 s; the driver may be stuck.'
      expect(await readGpuInventory({ timeoutMs: 300 })).toEqual({ error })
      // Killed at the timeout, not left to finish (node-nvidia-smi, through a shell, could not do that).
      const pids = readdirSync(pidDir).map(Number)
      expect(await waitFor(() => pids.every((pid) => !isAlive(pid)), 20_000)).toBe(true)
    } finally {
      delete process.env.FAKE_SMI_PID_DIR
      rmSync(pidDir, { recursive: true, force: true })
    }
  })

  it('names a missing nvidia-smi and garbled XML', async () => {
    process.env.PATH = path.join(fakeSmiDir, 'nowhere')
    expect(await readGpuInventory()).toEqual({
      error: 'nvidia-smi was not found on PATH: install the NVIDIA driver (it ships nvidia-smi), or use NVML',
    })
    process.env.PATH = `${fakeSmiDir}${path.delimiter}${oldPath ?? ''}`
    process.env.FAKE_SMI = 'garbled-xml'
    expect(await readGpuInventory()).toMatchObject({
      error: expect.stringMatching(/printed XML that does not parse|printed no nvidia_smi_log/),
    })
  })

  it('reads several GPUs and WDDM, and rejects foreign JSON', () => {
    const data = {
      nvidia_smi_log: {
        driver_version: '566.36',
        cuda_version: '12.7',
        gpu: [
          {
            product_name: 'NVIDIA GeForce RTX 4070 Laptop GPU',
            driver_model: { current_dm: 'WDDM' },
            fb_memory_usage: { total: '8188 MiB' },
            minor_number: 'N/A',
          },
          { product_name: 'X' },
        ],
      },
    }
    expect(inventoryFromSmiXmlJson(data)?.gpus).toEqual([
      { index: 0, productName: 'NVIDIA GeForce RTX 4070 Laptop GPU', uuid: null, driverModel: 'WDDM', memoryTotalMiB: 8188 },
      { index: 1, productName: 'X', uuid: null, driverModel: null, memoryTotalMiB: null },
    ])
    expect(inventoryFromSmiXmlJson({ foo: 1 })).toBeNull()
    expect(inventoryFromSmiXmlJson(null)).toBeNull()
  })
})
