import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeGpuTelemetry } from '../support/bench/fake-gpu'
import { addProfile } from '../support/core/tiny-core'
import { qwen36MoeGguf } from '../helpers/synthetic/qwen36-shapes'
import { writeSyntheticGguf } from '../helpers/synthetic/write-gguf'
import { FAKE_SERVER, REPO_ROOT } from '../helpers/paths'
import { launchChromium } from './browser'
import { sharedRendererBuild } from './shared-renderer-build'
import { openDashboard } from './dashboard-session'
import { serveFolder, type StaticServer } from './static-server'

// A load that runs out of GPU memory, as the user sees it: the recorded CUDA failure (replayed by the fake
// server) on a fake RTX 4060 Laptop with 5,000 MiB free, the retry's sentence in the header, and
// "Keep in profile" storing the placement that runs.
const OOM_LOG = join(REPO_ROOT, 'test', 'fixtures', 'llama-server-cuda-h200', 'err_cuda_oom_at_load_h200.log')
const LAPTOP = { totalMiB: 8188, idleMiB: 3188, serverMiB: 0, perGpuExpertLayerMiB: 0, layers: 40, draftMiB: 0 }
const tmp = mkdtempSync(join(tmpdir(), 'llama-tray-oom-e2e-'))
const modelPath = join(tmp, 'Qwen3.6-35B-A3B-Q4_K_M.gguf')
let browser: Browser
let site: StaticServer

beforeAll(async () => {
  await writeSyntheticGguf(modelPath, qwen36MoeGguf())
  site = await serveFolder(await sharedRendererBuild())
  browser = await launchChromium()
}, 300_000)
afterAll(async () => {
  await browser?.close()
  await site?.close()
  rmSync(tmp, { recursive: true, force: true })
})

describe('out of GPU memory at load (Chromium, real core)', () => {
  it('shows what the retry changed and keeps it in the profile with one click', async () => {
    const s = await openDashboard(browser, site.url, { telemetry: fakeGpuTelemetry(LAPTOP, 100), supervisor: { healthIntervalMs: 50 } })
    try {
      const { page, core, home } = s
      const args = [
        '-m',
        modelPath,
        '-ngl',
        '999',
        '--n-cpu-moe',
        '10',
        '-c',
        '8192',
        '-np',
        '1',
        '--fake-mode',
        'oom-at-load',
        '--fake-log',
        OOM_LOG,
        '--fake-fits-from-ncmoe',
        '11',
      ]
      const id = await addProfile(home, 'big-moe', [FAKE_SERVER, ...args])
      const started = await core.startProfile(id)
      expect(started.ok).toBe(true)
      const note = page.getByTestId('placement-retry')
      await note.waitFor({ timeout: 60_000 })
      const text = (await note.textContent()) ?? ''
      const n = Number(/--n-cpu-moe (\d+) \(was 10\)/.exec(text)?.[1])
      expect(n).toBeGreaterThan(10)
      expect(text).toMatch(
        /^The GPU ran out of memory loading the model \(5,000 MiB free, about [\d,]+ MiB needed\), so it was started with/,
      )
      await expect(page.getByTestId('server-state').getAttribute('data-state')).resolves.toBe('ready')
      expect((await core.handlers['profiles:get'](id))?.settings.nCpuMoe).toBe(10)
      await note.getByRole('button', { name: 'Keep in profile' }).click()
      await note.getByText('Stored in the profile.').waitFor()
      expect((await core.handlers['profiles:get'](id))?.settings.nCpuMoe).toBe(n)
    } finally {
      await s.close()
    }
  })
})
