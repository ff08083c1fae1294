import { DownloadError, downloadFile, type DownloadProgress } from '../lib/download'
import { EngineError } from './engine-error'
import type { ReleaseAsset } from './releases'

/**
 * Downloads one release asset to `dest`, resuming a part left by an earlier
 * try, verified against the API's sha256. No credentials are sent: GitHub's
 * download URLs are public, and the token is for the API host only.
 */
export async function downloadAsset(
  asset: ReleaseAsset,
  dest: string,
  opts: { readonly signal?: AbortSignal; readonly onProgress?: (p: DownloadProgress) => void } = {},
): Promise<void> {
  if (asset.sha256 === null)
    throw new EngineError(
      `GitHub gives no sha256 digest for ${asset.name}, so it cannot be verified: choose another release with --tag.`,
      'no-digest',
    )
  try {
    await downloadFile({
      url: asset.url,
      dest,
      expectedSha256: asset.sha256,
      expectedSize: asset.size,
      headers: { 'user-agent': 'llama-tray' },
      retries: 3,
      signal: opts.signal,
      onProgress: opts.onProgress,
    })
  } catch (err) {
    if (err instanceof DownloadError) {
      if (err.kind === 'digest-mismatch')
        throw new EngineError(
          `${asset.name} does not match the sha256 digest the release lists for it, so it was deleted and nothing was installed: try ` +
            `again, and report it if it repeats.`,
          'download',
          null,
          err.message,
        )
      const kind =
        err.kind === 'disk-full'
          ? 'disk-full'
          : err.kind === 'rate-limited'
            ? 'rate-limited'
            : err.kind === 'offline'
              ? 'offline'
              : 'download'
      throw new EngineError(err.message, kind, err.retryAt ?? null, err.detail ?? null)
    }
    throw err
  }
}
