/** The process listening on a TCP port, as far as this user may see it. */
export interface PortHolder {
  readonly pid: number
  /** Image name without path or ".exe"; null when the process table would not say. */
  readonly name: string | null
}
