/**
 * Normalises one llama-server log line before the timing parser looks at it:
 * drops the v0.5.0 `M.SS.mmm.uuu L ` prefix and ANSI colours, unwraps
 * `--log-jsonl` objects, and caps the length (timing lines are short, so a
 * megabyte of garbage costs nothing). Pure; never throws.
 */

/** Longer lines cannot be timing lines; only their start is looked at. */
export const MAX_LINE_LENGTH = 1024
/** A `--log-jsonl` object longer than this is not unwrapped. */
const MAX_JSONL_LENGTH = 16_384
const MAX_JSONL_LINES = 32

const V050_PREFIX = /^\d+\.\d{2}\.\d{3}\.\d{3} [IWEDT] /
// eslint-disable-next-line no-control-regex -- ANSI escape sequences are control characters by definition
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g

function clean(line: string): string {
  let s = line.length > MAX_LINE_LENGTH ? line.slice(0, MAX_LINE_LENGTH) : line
  if (s.includes('\u001b')) s = s.replace(ANSI, '')
  return s.replace(V050_PREFIX, '')
}

function unwrapJsonl(line: string): string[] | null {
  if (line.length > MAX_JSONL_LENGTH || !line.startsWith('{"type":"log"')) return null
  try {
    const obj: unknown = JSON.parse(line)
    if (typeof obj !== 'object' || obj === null) return null
    const msg = (obj as { msg?: unknown }).msg
    if (typeof msg !== 'string') return null
    // One message may hold several lines (the multi-line timing block).
    return msg.replace(/\n$/, '').split('\n').slice(0, MAX_JSONL_LINES)
  } catch {
    return null
  }
}

/** The message lines one raw log line carries (usually exactly one). */
export function normaliseLogLine(raw: string): string[] {
  if (typeof raw !== 'string') return []
  const trimmed = raw.replace(/\r$/, '')
  const inner = trimmed.startsWith('{') ? unwrapJsonl(trimmed) : null
  return (inner ?? [trimmed]).map(clean)
}
