import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { downloadAsset } from '../app/engines/download-asset'
import { installEngine } from '../app/engines/install'
import { ReleaseClient } from '../app/engines/release-client'
import { extractArchive } from '../app/engines/safe-extract'
import { GitHubReleasesStandIn } from '../test/stand-ins/github-releases'
import { linuxTarGz } from '../test/stand-ins/release-archives'
import { median, type BenchRow } from './bench-row'

const TAG = 'v0.5.0'

/** Runs a program without a shell (asynchronously: the stand-in serving it lives in this process). */
function run(exe: string, args: readonly string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(exe, [...args], { stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.on('data', (c: Buffer) => (err += c.toString()))
    child.on('error', fail)
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`${exe} exited ${code}: ${err.trim()}`))))
  })
}
const ROUNDS = 5

/**
 * `npm run bench engines`: the real llama-server packed as llama.cpp's Linux
 * tarball and served by the GitHub stand-in on loopback. Alternated rounds:
 * our extraction (tar with the safety filter) against GNU tar -xzf; our
 * download (resume-capable, sha256 while streaming) against curl; and the
 * whole install (API, download, extract, the binary's --version/--help, rename),
 * without the GPU check and with it (the check loads the shipped tiny model).
 */
export async function benchEngines(bin: string): Promise<BenchRow[]> {
  const work = await mkdtemp(join(tmpdir(), 'llama-tray-bench-engines-'))
  const tarball = await linuxTarGz(TAG, [{ name: 'llama-server', from: bin }])
  const archive = join(work, 'release.tar.gz')
  await writeFile(archive, tarball)
  const name = `llama-${TAG}-bin-ubuntu-x64.tar.gz`
  const gh = await new GitHubReleasesStandIn().start([{ tag: TAG, publishedAt: '2026-11-28T12:00:00Z', assets: [{ name, body: tarball }] }])
  const client = new ReleaseClient({ apiUrl: gh.apiUrl })
  const asset = (await client.release(TAG)).assets[0]!
  const ours: number[] = []
  const gnu: number[] = []
  const dl: number[] = []
  const curl: number[] = []
  const install: number[] = []
  const checked: number[] = []
  try {
    for (let i = 0; i < ROUNDS; i++) {
      const a = join(work, `a${i}`)
      const b = join(work, `b${i}`)
      await mkdir(a)
      await mkdir(b)
      let t = performance.now()
      await extractArchive(archive, a)
      ours.push(performance.now() - t)
      t = performance.now()
      await run('tar', ['-xzf', archive, '-C', b])
      gnu.push(performance.now() - t)

      t = performance.now()
      await downloadAsset(asset, join(work, `dl${i}`))
      dl.push(performance.now() - t)
      t = performance.now()
      await run('curl', ['-sfL', '-o', join(work, `curl${i}`), asset.url])
      curl.push(performance.now() - t)

      // Alternated, each in an empty home: without the GPU check, then with it (its cache empty).
      t = performance.now()
      await installEngine({ home: join(work, `home${i}`), client, backend: 'cpu', platform: 'linux', arch: 'x64', gpuCheck: false })
      install.push(performance.now() - t)
      t = performance.now()
      await installEngine({ home: join(work, `checked${i}`), client, backend: 'cpu', platform: 'linux', arch: 'x64' })
      checked.push(performance.now() - t)
    }
  } finally {
    await gh.close()
    await rm(work, { recursive: true, force: true })
  }
  const mbps = (ms: number): number => Math.round((tarball.length / 1048576 / (ms / 1000)) * 10) / 10
  const size = `${(tarball.length / 1048576).toFixed(1)} MB tar.gz`
  return [
    {
      group: 'engines',
      name: `extract (${size}, median of ${ROUNDS})`,
      value: Math.round(median(ours)),
      unit: 'ms',
      baseline: Math.round(median(gnu)),
      baselineName: 'GNU tar -xzf',
    },
    {
      group: 'engines',
      name: 'download throughput from the loopback stand-in',
      value: mbps(median(dl)),
      unit: 'MB/s',
      baseline: mbps(median(curl)),
      baselineName: 'curl -o',
    },
    {
      group: 'engines',
      name: 'whole install (API, download, extract, run --version/--help, rename)',
      value: Math.round(median(install)),
      unit: 'ms',
      baseline: Math.round(median(curl) + median(gnu)),
      baselineName: 'curl + tar -xzf',
    },
    {
      group: 'engines',
      name: 'whole install with the GPU check (the shipped 1.5 MB model, /health, 4 tokens; CPU build)',
      value: Math.round(median(checked)),
      unit: 'ms',
      baseline: Math.round(median(install)),
      baselineName: 'the same install without the check',
    },
  ]
}
