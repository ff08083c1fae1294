/**
 * Resumable HTTP(S) downloads (layer 1: imports only app/contract and app/lib).
 *
 *   downloadFile({ url, dest, expectedSize, partPath?, headers?, expectedSha256?,
 *                  signal?, onProgress?, retries?, idleTimeoutMs?, maxRedirects? })
 *     → Promise<{ path, sizeBytes, sha256, resumedFrom, attempts }>
 *   getBody({ url, headers?, signal?, timeoutMs?, maxBytes? })  (an API's JSON)
 *     → Promise<{ status, headers, body, url }>; rate limits and no network throw as below
 *
 * - The body grows in `partPath` (default `<dest>.part`, beside it `<part>.json`
 *   with the URL and the ETag/Last-Modified); `dest` appears only complete and
 *   verified, by an atomic rename.
 * - A present part is resumed with `Range` (+ `If-Range`); a 200 answer restarts
 *   it from byte 0; the sha256 is computed while streaming (a resumed part is
 *   hashed first) and checked against `expectedSha256` (lowercase hex).
 * - `expectedSize` (the size an API listed) is enforced: an answer announcing
 *   another size is refused before a byte is written (size-mismatch), and one
 *   that sends more is stopped before the part passes it (too-large); both
 *   delete the part. A body with no length that ends short is a cut.
 * - Redirects are followed; Authorization/Cookie go only to the URL's own host.
 * - `onProgress({ bytes, total, rateBps })` at most every 100 ms, and once at the end.
 * - Failures throw `DownloadError` (`kind`, `resumable`, `status`, `retryAt`,
 *   `expectedSha256`/`actualSha256`), its message one sentence with the fix:
 *   offline (DNS), network, cut/timeout (part kept: call again to resume;
 *   `retries` does it itself), http, rate-limited (with the reset time from
 *   `retry-after`/`x-ratelimit-reset`), digest-mismatch / size-mismatch / too-large (part
 *   deleted), disk-full (part deleted), aborted (part kept), bad-url, too-many-redirects.
 */
export { downloadFile, type DownloadOptions, type DownloadProgress, type DownloadResult } from './download-file'
export { DownloadError, isDownloadError, type DownloadErrorKind } from './download-error'
export { isRateLimited, rateLimitResetAt } from './rate-limit'
export { getBody, type GetBodyRequest, type GetBodyResult } from './get-body'
