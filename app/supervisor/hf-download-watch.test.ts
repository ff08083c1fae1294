import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DownloadInfo } from '../contract/server-state'
import { HfHubStandIn, startTinyHub } from '../../test/stand-ins/hf-hub'
import { HfDownloadWatch, hfRepos, launchDownloads } from './hf-download-watch'

let hub: HfHubStandIn
let dir = ''
const watches: HfDownloadWatch[] = []

beforeAll(async () => {
  hub = await startTinyHub()
})
afterAll(() => hub.close())
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'llama-tray-hfwatch-'))
})
afterEach(async () => {
  for (const w of watches.splice(0)) w.stop()
  await rm(dir, { recursive: true, force: true })
})

/**
 * Collects what the watch reports; `next` resolves with the first report that passes the test,
 * the latest one included: on a busy machine the watch may report a file's size before the test,
 * resumed after writing it, starts waiting (that report is then the last there will be).
 */
function recorder(): {
  seen: (DownloadInfo | null)[]
  onChange: (d: DownloadInfo | null) => void
  next: (ok: (d: DownloadInfo | null) => boolean) => Promise<DownloadInfo | null>
} {
  const seen: (DownloadInfo | null)[] = []
  const waiters: { ok: (d: DownloadInfo | null) => boolean; resolve: (d: DownloadInfo | null) => void }[] = []
  return {
    seen,
    onChange: (d) => {
      seen.push(d)
      for (const w of waiters.splice(0)) {
        if (w.ok(d)) w.resolve(d)
        else waiters.push(w)
      }
    },
    next: (ok) =>
      new Promise((resolve) => {
        const latest = seen.at(-1)
        if (latest !== undefined && ok(latest)) resolve(latest)
        else waiters.push({ ok, resolve })
      }),
  }
}

describe('hfRepos', () => {
  it('reads the repos of -hf and -hfd without their quant', () => {
    expect(hfRepos(['-hf', 'org/A-GGUF:Q4_K_M', '-hfd', 'org/B-GGUF', '-c', '4096'])).toEqual(['org/A-GGUF', 'org/B-GGUF'])
    expect(launchDownloads(['--hf-repo', 'org/A'])).toBe(true)
    expect(launchDownloads(['-m', 'a.gguf'])).toBe(false)
  })
})

describe('HfDownloadWatch', () => {
  it('reports a growing in-progress blob against the size the Hub gives, then null once it is gone', async () => {
    const repo = 'test-org/Tiny-GGUF'
    const file = hub.repo(repo).files.find((f) => f.path === 'tiny-target-Q4_K_M.gguf')!
    const blobs = join(dir, 'models--test-org--Tiny-GGUF', 'blobs')
    await mkdir(blobs, { recursive: true })
    const part = join(blobs, `${file.sha256}.downloadInProgress`)
    const rec = recorder()
    const w = new HfDownloadWatch({
      repos: [repo],
      env: { HF_ENDPOINT: hub.origin, LLAMA_CACHE: dir },
      intervalMs: 10,
      onChange: rec.onChange,
    })
    watches.push(w)
    w.start()
    await writeFile(part, Buffer.alloc(1_000_000))
    const first = await rec.next((d) => d !== null && d.bytes === 1_000_000)
    expect(first).toMatchObject({ repo, file: 'tiny-target-Q4_K_M.gguf', bytes: 1_000_000, total: file.size })
    await appendFile(part, Buffer.alloc(2_000_000))
    expect(await rec.next((d) => d !== null && d.bytes === 3_000_000)).toMatchObject({ bytes: 3_000_000, total: file.size })
    await rm(part)
    expect(await rec.next((d) => d === null)).toBeNull()
    const bytes = rec.seen.filter((d): d is DownloadInfo => d !== null).map((d) => d.bytes)
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b))
  })

  it('watches the .incomplete name too, with an unknown total when the Hub cannot be reached', async () => {
    const blobs = join(dir, 'models--org--x', 'blobs')
    await mkdir(blobs, { recursive: true })
    const rec = recorder()
    const w = new HfDownloadWatch({
      repos: ['org/x'],
      env: { HF_ENDPOINT: 'http://127.0.0.1:1', HF_HUB_CACHE: dir },
      intervalMs: 10,
      onChange: rec.onChange,
    })
    watches.push(w)
    w.start()
    await writeFile(join(blobs, `${'ab'.repeat(32)}.incomplete`), Buffer.alloc(10))
    expect(await rec.next((d) => d !== null)).toMatchObject({ repo: 'org/x', file: 'abababababab', bytes: 10, total: null })
  })
})
