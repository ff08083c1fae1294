import type { Warning } from '../contract/warnings'

/** The longest line a warning prints in a terminal: a longer sentence wraps at a space onto indented lines. */
export const WARNING_LINE_MAX = 160

/**
 * Text cut at spaces into lines of at most `max` characters, the first one after `lead`, the later ones indented
 * (a word longer than a line is cut).
 */
export function wrapLine(text: string, lead = '', max = WARNING_LINE_MAX, indent = `${lead}  `): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const prefix = lines.length === 0 && line === '' ? lead : line === '' ? indent : `${line} `
    if ((prefix + word).length <= max) line = prefix + word
    else {
      if (line !== '') lines.push(line)
      let rest = indent + word
      while (rest.length > max) {
        lines.push(rest.slice(0, max))
        rest = indent + rest.slice(max)
      }
      line = rest
    }
  }
  if (line !== '') lines.push(line)
  return lines
}

/** The one hint where the reasons are, said once per run after the first warning with a reason. */
const REASONS_HINT = 'Why: llama-tray lint <profile> shows each warning with its reason and fix, or run with --verbose.'

/**
 * Turns the snapshots' warnings into lines printed once: when a warning appears and when it clears, never again while
 * it stays (the status line is redrawn every interval; a warning is not). A warning is its headline and its fix's
 * label; its reason (the measurement behind it) only with --verbose, and otherwise, once, where to read it.
 */
export class WarningLines {
  private shown = new Map<string, Warning>()
  private hinted = false

  constructor(private readonly verbose = false) {}

  /** The lines to print for this snapshot's warnings: new ones first, then the ones that cleared. */
  update(warnings: readonly Warning[]): string[] {
    const current = new Map(warnings.map((w) => [w.id, w]))
    const lines: string[] = []
    for (const [id, w] of current) if (!this.shown.has(id)) lines.push(...this.appeared(w))
    for (const [id, w] of this.shown) if (!current.has(id)) lines.push(...wrapLine(`Cleared: ${w.headline}`))
    this.shown = current
    return lines
  }

  private appeared(w: Warning): string[] {
    const lines = wrapLine(`! ${w.headline}${w.fix ? ` Fix: ${w.fix.label}${w.fix.cost ? `, ${w.fix.cost}` : ''}.` : ''}`)
    if (w.reason === '') return lines
    if (this.verbose) return [...lines, ...wrapLine(w.reason, '  ')]
    if (this.hinted) return lines
    this.hinted = true
    return [...lines, ...wrapLine(REASONS_HINT, '  ')]
  }
}
