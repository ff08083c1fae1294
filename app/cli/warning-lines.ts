import { warningText, type Warning } from '../contract/warnings'

/**
 * Turns the snapshots' warnings into lines printed once: when a warning appears and when it clears,
 * never again while it stays (the status line is redrawn every interval; a warning is not).
 */
export class WarningLines {
  private shown = new Map<string, string>()

  /** The lines to print for this snapshot's warnings: new ones first, then the ones that cleared. */
  update(warnings: readonly Warning[]): string[] {
    const current = new Map(warnings.map((w) => [w.id, warningText(w)]))
    const lines: string[] = []
    for (const [id, message] of current) if (!this.shown.has(id)) lines.push(`! ${message}`)
    for (const [id, message] of this.shown) if (!current.has(id)) lines.push(`Cleared: ${message}`)
    this.shown = current
    return lines
  }
}
