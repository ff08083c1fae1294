import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ServerStatus } from '../../app/contract/server-state'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { SupervisorHarness } from '../helpers/supervisor-harness'
import { HfHubStandIn, startTinyHub } from '../stand-ins/hf-hub'

// What the test build of llama-server (v0.5.0, no TLS) does with -hf: against a
// plain-http HF_ENDPOINT it lists the repo (/api/models/{repo}/refs, /tree),
// HEADs and GETs /resolve (following the 302 to the CDN), and downloads into
// the HF cache as blobs/<sha256>.downloadInProgress, resuming with Range after
// a cut; against https it stops at "HTTPS is not supported".
let bin: string
let hub: HfHubStandIn
let dir: string
const harnesses: SupervisorHarness[] = []
const REPO = 'test-org/Tiny-GGUF'

beforeAll(async () => {
  bin = llamaServerBin()
  hub = await startTinyHub()
  dir = mkdtempSync(join(tmpdir(), 'llama-tray-hf-launch-'))
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

function harness(options: ConstructorParameters<typeof SupervisorHarness>[0] = {}): SupervisorHarness {
  const h = new SupervisorHarness({ downloadPollMs: 50, ...options })
  harnesses.push(h)
  return h
}

const hfArgs = ['-hf', `${REPO}:Q4_K_M`, '-c', '2048', '-np', '1', '-t', '1']

function statusWhere(h: SupervisorHarness, ok: (s: ServerStatus) => boolean): Promise<ServerStatus> {
  const now = h.supervisor.getStatus()
  if (ok(now)) return Promise.resolve(now)
  return new Promise((resolve) => {
    const off = h.supervisor.on('state', (s) => {
      if (ok(s)) {
        off()
        resolve(s)
      }
    })
  })
}

describe('-hf launches', () => {
  it('say downloading with bytes and total while llama-server fetches the model, with no readiness deadline until it is in', async () => {
    const file = hub.repo(REPO).files.find((f) => f.path === 'tiny-target-Q4_K_M.gguf')!
    hub.faultNext(REPO, file.path, { stallAfter: 3_000_000 })
    const readyTimeoutMs = 4000
    const h = harness({ readyTimeoutMs })
    const settled = h.supervisor.start({
      profileId: 'hf',
      exe: bin,
      args: hfArgs,
      env: { HF_ENDPOINT: hub.origin, HF_HUB_CACHE: join(dir, 'a') },
    })
    // Any figure partway: llama-server prints its progress now and then, so the last line before the stall may be short of it.
    const partway = await statusWhere(h, (s) => s.state === 'downloading' && (s.download?.bytes ?? 0) > 0)
    expect(partway.state === 'downloading' ? partway.download : null).toMatchObject({ repo: REPO, file: file.path, total: file.size })
    // The connection stays quiet for longer than the readiness deadline: a download is not a start that hangs.
    await new Promise((r) => setTimeout(r, readyTimeoutMs * 1.5))
    expect(h.supervisor.getStatus().state).toBe('downloading')
    hub.releaseStalls() // llama-server retries and resumes with Range
    const end = await settled
    expect(end.state).toBe('ready')
    expect('download' in end).toBe(false)
    // Out of downloading when the file is in (the deadline starts there): to starting, or straight to loading when the
    // server reports its load through its channel; then ready. A 503 before the download shows may put loading first.
    const after = h.states.slice(h.states.indexOf('downloading'))
    expect(after[0]).toBe('downloading')
    expect(['starting', 'loading']).toContain(after[1])
    expect(after.at(-1)).toBe('ready')
    expect(h.states.filter((s) => s === 'downloading')).toHaveLength(1)
    const cdn = hub.requests.filter((q) => q.path === `cdn:/cdn/${file.sha256}` && q.headers.range !== undefined)
    expect(cdn.length).toBeGreaterThan(0)
  })

  it('fails with the cause and the models pull command when the binary cannot download (no HTTPS in the test build)', async () => {
    const h = harness()
    const end = await h.supervisor.start({
      profileId: 'hf',
      exe: bin,
      args: hfArgs,
      env: { HF_ENDPOINT: 'https://127.0.0.1:9', HF_HUB_CACHE: join(dir, 'b') },
    })
    expect(end.state).toBe('errored')
    expect(end.lastExit).toMatchObject({
      kind: 'download-failed',
      reason: 'this llama-server was built without HTTPS support, so -hf cannot download the model',
      hint: `run llama-tray models pull ${REPO}:Q4_K_M (resumes and verifies it), then use -m with the path it prints`,
    })
  })
})
