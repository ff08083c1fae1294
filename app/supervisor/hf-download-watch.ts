import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { lastValue, spellingsOf } from '../contract/flag-args'
import type { DownloadInfo } from '../contract/server-state'
import { fetchRepoInfo, hubEndpoint, hubToken, llamaCacheDir, repoFolderName } from '../models'

type Env = Readonly<Record<string, string | undefined>>

const HF_FLAGS = spellingsOf('hf-repo', 'spec-draft-hf')
// llama.cpp's -hf writes `blobs/<sha256>.downloadInProgress` (v0.5.0); huggingface_hub and newer builds `.incomplete`.
const IN_PROGRESS = /^([0-9a-f]{64})\.(?:incomplete|downloadInProgress)$/

/** The repos (org/name) a launch's `-hf`/`-hfd` flags download from, without their `:quant`. */
export function hfRepos(args: readonly string[]): string[] {
  return HF_FLAGS.map((f) => lastValue(args, [f]))
    .filter((v): v is string => v !== null)
    .map((v) => v.split(':')[0] as string)
    .filter((v, i, all) => /^[\w.-]+\/[\w.-]+$/.test(v) && all.indexOf(v) === i)
}

export const launchDownloads = (args: readonly string[]): boolean => lastValue(args, HF_FLAGS) !== null

export interface HfDownloadWatchOptions {
  readonly repos: readonly string[]
  readonly env: Env
  readonly intervalMs: number
  /** The download under way, or null once none is (finished, or it never began). */
  readonly onChange: (d: DownloadInfo | null) => void
}

/**
 * Watches what llama-server's `-hf` downloads: it prints its progress bar only
 * to a terminal, so the progress is read from the growing in-progress blob in
 * the cache, against the file's size from the Hub API (its LFS oid is the
 * blob's name). Polls; never throws (an unreadable folder is no download).
 */
export class HfDownloadWatch {
  private timer: NodeJS.Timeout | null = null
  private stopped = false
  private last: { readonly bytes: number; readonly at: number; readonly rate: number } | null = null
  private current: DownloadInfo | null = null
  private readonly sizes = new Map<string, Promise<Map<string, { size: number; path: string }>>>()

  constructor(private readonly opts: HfDownloadWatchOptions) {}

  start(): void {
    void this.tick()
  }

  stop(): void {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  private async tick(): Promise<void> {
    const found = await this.find().catch(() => null)
    if (this.stopped) return
    if (found) {
      const now = Date.now()
      const prev = this.last
      const instant = prev && now > prev.at ? ((found.bytes - prev.bytes) * 1000) / (now - prev.at) : 0
      // Smoothed, so one slow poll does not make the rate jump.
      const rate = prev ? Math.max(0, prev.rate === 0 ? instant : prev.rate * 0.7 + instant * 0.3) : 0
      this.last = { bytes: found.bytes, at: now, rate }
      const next: DownloadInfo = { ...found, rateBps: Math.round(rate) }
      if (this.current?.bytes !== next.bytes || this.current.file !== next.file || this.current.total !== next.total) {
        this.current = next
        this.opts.onChange(next)
      }
    } else if (this.current) {
      this.current = null
      this.last = null
      this.opts.onChange(null)
    }
    this.timer = setTimeout(() => void this.tick(), this.opts.intervalMs)
  }

  private async find(): Promise<Omit<DownloadInfo, 'rateBps'> | null> {
    const cache = llamaCacheDir(this.opts.env)
    for (const repo of this.opts.repos) {
      const blobs = join(cache, repoFolderName(repo), 'blobs')
      const names = await readdir(blobs).catch(() => [] as string[])
      for (const name of names) {
        const sha = IN_PROGRESS.exec(name)?.[1]
        if (!sha) continue
        const s = await stat(join(blobs, name)).catch(() => null)
        if (!s?.isFile()) continue
        const known = (await this.repoSizes(repo)).get(sha)
        return { repo, file: known?.path ?? sha.slice(0, 12), bytes: s.size, total: known?.size ?? null }
      }
    }
    return null
  }

  /** The repo's LFS files by sha256, asked of the Hub once (an unreachable Hub: sizes unknown). */
  private repoSizes(repo: string): Promise<Map<string, { size: number; path: string }>> {
    let p = this.sizes.get(repo)
    if (!p) {
      p = fetchRepoInfo({ endpoint: hubEndpoint(this.opts.env), token: hubToken(this.opts.env) }, repo)
        .then(
          (info) => new Map(info.files.filter((f) => f.sha256 !== null).map((f) => [f.sha256 as string, { size: f.size, path: f.path }])),
        )
        .catch(() => new Map())
      this.sizes.set(repo, p)
    }
    return p
  }
}
