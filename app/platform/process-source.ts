/** One running process as a platform reports it. */
export interface ProcessInfo {
  readonly pid: number
  /** Image name without path or ".exe" (e.g. "chrome"; Linux truncates to 15 characters). */
  readonly name: string
  /** CPU time used so far (user + kernel), in ms; null when the platform will not say for this process. */
  readonly cpuMs: number | null
  /** Resident memory (working set on Windows), in KiB; null when unknown. */
  readonly rssKiB: number | null
}

/**
 * The platform's process table. Implementations spawn nothing per call:
 * Linux reads /proc, Windows calls Toolhelp and GetProcessTimes through koffi.
 */
export interface ProcessSource {
  /** Every process we can see (a scan; meant for every 5–10 s). */
  list(): ProcessInfo[]
  /** One process, cheaply (meant for every tick); null when it is gone. */
  read(pid: number): ProcessInfo | null
}

/** "C:\\x\\Chrome.EXE" → "chrome"; "firefox-bin" stays. */
export function normalizeImageName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name
  return base.replace(/\.exe$/i, '').toLowerCase()
}
