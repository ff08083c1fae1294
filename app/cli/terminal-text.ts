/**
 * Untrusted text (profile names, GGUF strings, server messages) made safe for
 * a terminal: C0 and C1 control characters and DEL are removed, so an ANSI
 * escape in a profile name or a model's metadata cannot recolour, retitle or
 * rewrite the user's terminal. Kept: newline and tab; the two erase-line
 * sequences our own progress lines draw (ESC[2K, ESC[K); and a carriage
 * return at the very start of a write, where our redraws put it (text from
 * elsewhere always comes after a prefix, so a carriage return inside it goes).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /\x1b\[2?K|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g

export function terminalText(text: string): string {
  const lead = text.startsWith('\r') ? '\r' : ''
  return lead + text.slice(lead.length).replace(UNSAFE, (m) => (m.length > 1 ? m : ''))
}

/**
 * Makes every string written to `stream` go through terminalText: the CLI's
 * one output boundary (commands write to these streams only). Buffers, which
 * only our own byte-for-byte copies write, pass unchanged.
 */
export function guardTerminalOutput(stream: NodeJS.WritableStream): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean
  stream.write = ((chunk: unknown, ...rest: unknown[]) =>
    write(typeof chunk === 'string' ? terminalText(chunk) : chunk, ...rest)) as typeof stream.write
}
