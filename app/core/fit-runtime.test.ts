import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RUNTIME_FILE } from '../fit/runtime-store'
import { CUDA_RUNTIME_MIB } from '../fit/runtime-overhead'
import { formatCommandLine } from '../lib/command-line'
import { fakeVramTelemetry } from '../../test/e2e/fake-vram-telemetry'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { model } from '../../test/helpers/paths'
import { waitUntil } from '../../test/helpers/processes'
import { LlamaTrayCore } from './llama-tray-core'
import { runningProcess } from '../../test/helpers/server-status'

function complete(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/completion', method: 'POST', agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume()
        res.on('end', () => resolve())
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify({ prompt: 'Hello', n_predict: 8 }))
  })
}

// A scripted 8 GiB GPU (this machine has none) under the real core and llama-server:
// once the server is ready the "driver" shows it holding 450 MiB, as nvidia-smi would.
const HOLDS_MIB = 450
let bin: string
let home: string
beforeAll(() => {
  bin = llamaServerBin()
  home = mkdtempSync(join(tmpdir(), 'llama-tray-fit-runtime-'))
}, 900_000)
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('the CUDA runtime learned from a launch', () => {
  it(
    'is learned by the core from a launch that answered a request (measured use minus the estimated buffers, per GPU model); estimating ' +
      'only reads it',
    async () => {
      let holding = false
      const core = await LlamaTrayCore.create({
        home,
        telemetry: fakeVramTelemetry([6000], { usedByOthersMiB: () => (holding ? HOLDS_MIB : 0) }),
        supervisor: { healthIntervalMs: 20 },
      })
      core.on('server:state-changed', (s) => {
        if (s.state === 'ready') holding = true
        if (s.state === 'stopped') holding = false
      })
      const file = join(home, RUNTIME_FILE)
      try {
        await core.handlers['dashboard:visible'](true)
        const imported = await core.handlers['profiles:import'](
          formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1', '-t', '1']),
          'tiny',
        )
        if (!imported.ok) throw new Error(imported.error.sentence)
        const before = await core.handlers['fit:estimate'](imported.value.id)
        if (!before.ok) throw new Error(before.error.sentence)
        expect(before.value.report).toMatchObject({ gpuRuntimeMiB: CUDA_RUNTIME_MIB, gpuRuntimeSource: 'default' })

        expect((await core.handlers['server:start'](imported.value.id)).ok).toBe(true)
        await waitUntil(() => holding, 30_000, 'the server to be ready')
        // Not learned before the server has answered a request (the first one allocates more), however many snapshots pass.
        const ticks: number[] = []
        const offTicks = core.on('snapshot', (s) => ticks.push(s.time))
        await waitUntil(() => ticks.length >= 3, 30_000, 'three snapshots of the ready server')
        offTicks()
        const atReady = await core.handlers['fit:estimate'](imported.value.id)
        if (!atReady.ok) throw new Error(atReady.error.sentence)
        expect(atReady.value.report.gpuRuntimeSource).toBe('default')
        expect(existsSync(file)).toBe(false)

        // The answered request, with a GPU sample after it, is what teaches the runtime: no estimate is asked for.
        await complete(runningProcess(core.server.getStatus()).port)
        await waitUntil(() => existsSync(file), 30_000, 'the learned runtime to be written')
        const stored = readFileSync(file, 'utf8')
        expect(Object.keys(JSON.parse(stored).gpus)).toEqual(['NVIDIA GeForce RTX 4060 Laptop GPU (scripted)'])

        const during = await core.handlers['fit:estimate'](imported.value.id)
        if (!during.ok) throw new Error(during.error.sentence)
        const buffers = during.value.report.total.gpu.totalMiB
        expect(during.value.measuredServerGpuMiB).toBe(HOLDS_MIB)
        expect(during.value.report.gpuRuntimeSource).toBe('measured')
        expect(during.value.report.gpuRuntimeMiB).toBe(Math.round(HOLDS_MIB - buffers))
        expect(during.value.report.gpuProcessMiB).toBeCloseTo(HOLDS_MIB, 0)

        // Estimating is a query: with the file gone (a launch teaches once), estimates on the served server write nothing.
        rmSync(file)
        for (let i = 0; i < 3; i++) {
          const again = await core.handlers['fit:estimate'](imported.value.id)
          if (!again.ok) throw new Error(again.error.sentence)
          expect(again.value.report.gpuRuntimeSource).toBe('default')
          expect(again.value.measuredServerGpuMiB).toBe(HOLDS_MIB)
        }
        expect(existsSync(file)).toBe(false)
        writeFileSync(file, stored)

        await core.handlers['server:stop']()
        const after = await core.handlers['fit:estimate'](imported.value.id)
        if (!after.ok) throw new Error(after.error.sentence)
        expect(after.value.report).toMatchObject({ gpuRuntimeMiB: Math.round(HOLDS_MIB - buffers), gpuRuntimeSource: 'measured' })
        console.log(`[fit] learned runtime ${after.value.report.gpuRuntimeMiB} MiB (server held ${HOLDS_MIB} MiB, buffers ${buffers} MiB)`)
      } finally {
        await core.dispose()
      }
    },
    120_000,
  )
})
