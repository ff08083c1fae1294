import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { downloadFile, isDownloadError } from '../app/lib/download'
import { pullModel, resolveUrl } from '../app/models'
import { HfHubStandIn } from '../test/stand-ins/hf-hub'
import { median, type BenchRow } from './bench-row'

const ROUNDS = 5
const SIZE = 128 * 1024 * 1024
const REPO = 'bench-org/Big-GGUF'
const FILE = 'big-Q4_K_M.gguf'

function curl(url: string, out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['-sfL', '-o', out, url], { stdio: 'ignore' })
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`curl exited with ${code}`))))
  })
}

/**
 * Model downloads on the loopback Hub stand-in, alternated with curl in the
 * same run: a whole `models pull` (API, 302 to the CDN, sha256 while
 * streaming, rename into the cache) against `curl -L -o` of the same resolve
 * URL; and a resume after a cut at half the file against a fresh download.
 * The stand-in runs in this process, so both share the server's CPU alike.
 */
export async function benchDownloads(): Promise<BenchRow[]> {
  const body = randomBytes(SIZE)
  const hub = await new HfHubStandIn().addRepo({ id: REPO, files: [{ path: FILE, body }] }).start()
  const work = await mkdtemp(join(tmpdir(), 'llama-tray-bench-downloads-'))
  const { commit, files } = hub.repo(REPO)
  const sha = files[0]!.sha256
  const url = resolveUrl(hub.origin, REPO, commit, FILE)
  const ours: number[] = []
  const theirs: number[] = []
  const resumed: number[] = []
  const fresh: number[] = []
  let resumedFrom = 0
  try {
    for (let i = 0; i < ROUNDS; i++) {
      let t = performance.now()
      await pullModel({ repo: REPO, quant: 'Q4_K_M', env: { HF_ENDPOINT: hub.origin, HF_HUB_CACHE: join(work, `hub${i}`) } })
      ours.push(performance.now() - t)
      t = performance.now()
      await curl(url, join(work, `curl${i}`))
      theirs.push(performance.now() - t)
      await rm(join(work, `hub${i}`), { recursive: true, force: true })
      await rm(join(work, `curl${i}`), { force: true })

      // A cut at half the file, then the resume; against one whole download.
      const dest = join(work, `r${i}`)
      hub.faultNext(REPO, FILE, { cutAfter: SIZE / 2 })
      await downloadFile({ url, dest, expectedSha256: sha, expectedSize: SIZE }).catch((err: unknown) => {
        if (!isDownloadError(err) || err.kind !== 'cut') throw err
      })
      t = performance.now()
      const r = await downloadFile({ url, dest, expectedSha256: sha, expectedSize: SIZE })
      resumed.push(performance.now() - t)
      resumedFrom = r.resumedFrom
      t = performance.now()
      await downloadFile({ url, dest: join(work, `f${i}`), expectedSha256: sha, expectedSize: SIZE })
      fresh.push(performance.now() - t)
      if ((await stat(dest)).size !== SIZE) throw new Error('resumed file has the wrong size')
      await rm(dest, { force: true })
      await rm(join(work, `f${i}`), { force: true })
    }
  } finally {
    await hub.close()
    await rm(work, { recursive: true, force: true })
  }
  const mbps = (ms: number): number => Math.round((SIZE / 1048576 / (ms / 1000)) * 10) / 10
  return [
    {
      group: 'downloads',
      name: `models pull, ${SIZE / 1048576} MiB over loopback (median of ${ROUNDS})`,
      value: mbps(median(ours)),
      unit: 'MB/s',
      baseline: mbps(median(theirs)),
      baselineName: 'curl -L -o (same URL)',
    },
    {
      group: 'downloads',
      name: `resume after a cut at ${Math.round((resumedFrom / SIZE) * 100)} % (hashes the part, fetches the rest)`,
      value: Math.round(median(resumed)),
      unit: 'ms',
      baseline: Math.round(median(fresh)),
      baselineName: 'the whole file again',
    },
  ]
}
