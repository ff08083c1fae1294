import { problem, type Problem } from '../contract/problem'

/** $LLAMA_TRAY_PORT holds something that is not a port; the message is one sentence with the fix. */
export class PortOverrideError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PortOverrideError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('settings', this.message)
  }
}

/**
 * $LLAMA_TRAY_PORT overrides the port setting for this process and what it starts: a port number,
 * or 0 for any free port (which the test suite sets, so that a user's own server on 8080 never meets
 * a test, and a test never takes the port a user's clients expect). Null when unset; anything else
 * ("abc", "70000", "1e3") is refused with a PortOverrideError rather than ignored without a word.
 */
export function portOverride(env: NodeJS.ProcessEnv = process.env): number | null {
  const raw = env.LLAMA_TRAY_PORT?.trim()
  if (raw === undefined || raw === '') return null
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65_535) {
    throw new PortOverrideError(
      `LLAMA_TRAY_PORT is "${raw}", which is not a port: set it to a whole number from 0 (any free port) to 65535, or unset it.`,
    )
  }
  return Number(raw)
}
