import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { pullModel } from '../../app/models'
import { discover } from '../../app/profiles/discovery'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { SupervisorHarness } from '../helpers/supervisor-harness'
import { HfHubStandIn, startTinyHub } from '../stand-ins/hf-hub'

let bin: string
let hub: HfHubStandIn
let dir: string
const harnesses: SupervisorHarness[] = []

beforeAll(async () => {
  bin = llamaServerBin()
  hub = await startTinyHub()
  dir = mkdtempSync(join(tmpdir(), 'llama-tray-pull-it-'))
}, 900_000)
afterEach(async () => {
  for (const h of harnesses.splice(0)) {
    await h.dispose()
    expect(h.pids.alive(), 'llama-server processes left behind').toEqual([])
  }
})
afterAll(async () => {
  await hub.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('a pulled model', () => {
  it('is found by discovery in the HF cache and started to ready by the real llama-server', async () => {
    const env = { HF_ENDPOINT: hub.origin, HF_HUB_CACHE: join(dir, 'hub') }
    const pulled = await pullModel({ repo: 'test-org/Tiny-GGUF', quant: 'Q4_K_M', env })
    const found = await discover({ home: join(dir, 'home'), env, homedir: join(dir, 'user'), platform: 'linux' })
    const m = found.models.find((x) => x.path === pulled.path)
    expect(m).toMatchObject({ source: 'Hugging Face cache', quantisation: 'Q4_K_M', problem: null })
    const h = new SupervisorHarness()
    harnesses.push(h)
    const ready = await h.supervisor.start({ profileId: 'pulled', exe: bin, args: ['-m', m!.path, '-c', '2048', '-np', '1', '-t', '1'] })
    expect(ready.state).toBe('ready')
  })
})
