/**
 * $LLAMA_TRAY_PORT overrides the port setting for this process and what it starts: a port number,
 * or 0 for any free port (which the test suite sets, so that a user's own server on 8080 never meets
 * a test, and a test never takes the port a user's clients expect). Null when unset or not a port.
 */
export function portOverride(env: NodeJS.ProcessEnv = process.env): number | null {
  const raw = env.LLAMA_TRAY_PORT?.trim()
  if (!raw || !/^\d+$/.test(raw)) return null
  const port = Number(raw)
  return port <= 65_535 ? port : null
}
