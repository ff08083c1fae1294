/**
 * How much an engine archive may unpack to. The figures come from llama.cpp's
 * real release assets: the largest, a Windows CUDA build or its cudart zip,
 * unpack to about 0.5–0.6 GB (ggml-cuda.dll, cublasLt64_*.dll at a few
 * hundred MB each), at a ratio of 1.5–3 to the archive; the Linux and CPU
 * builds are tens of MB. The budgets leave several times that room and stop a
 * bomb (a run of zeros deflates about 1000:1) long before it fills a disk.
 */
export const MAX_UNPACKED_BYTES = 4 * 1024 ** 3
/** No single file of a release comes near this (the largest is under 1 GB). */
export const MAX_ENTRY_BYTES = 2 * 1024 ** 3
/** Unpacked bytes allowed per archive byte, above the floor below. */
export const MAX_RATIO = 20
/** What any archive may unpack to, however small (a tiny archive of text files compresses well). */
export const MIN_ALLOWANCE_BYTES = 64 * 1024 ** 2
/** Release archives hold about a hundred entries; a million empty files is a bomb of another kind. */
export const MAX_ENTRIES = 10_000

export interface ArchiveLimits {
  readonly totalBytes: number
  readonly entryBytes: number
  readonly entries: number
}

/** The limits for an archive of `archiveBytes` on disk: total ≤ min(4 GiB, max(64 MiB, 20 × its size)). */
export function limitsFor(archiveBytes: number): ArchiveLimits {
  const totalBytes = Math.min(MAX_UNPACKED_BYTES, Math.max(MIN_ALLOWANCE_BYTES, MAX_RATIO * archiveBytes))
  return { totalBytes, entryBytes: MAX_ENTRY_BYTES, entries: MAX_ENTRIES }
}

/** Binary units for a limit in a sentence: 64 MiB, 4 GiB. */
export function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${+(n / 1024 ** 3).toFixed(1)} GiB`
  if (n >= 1024 ** 2) return `${+(n / 1024 ** 2).toFixed(1)} MiB`
  if (n >= 1024) return `${+(n / 1024).toFixed(1)} KiB`
  return `${n} bytes`
}
