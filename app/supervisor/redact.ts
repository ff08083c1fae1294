/** The argument list with API keys replaced, for logs and status displays. */
export function redactArgs(args: readonly string[]): string[] {
  const out = [...args]
  for (let i = 0; i < out.length; i++) {
    const a = out[i] as string
    if (a === '--api-key' && i + 1 < out.length) out[i + 1] = '***'
    else if (a.startsWith('--api-key=')) out[i] = '--api-key=***'
  }
  return out
}

