/** Reading and completing llama-server argument arrays (pure). */

import { fieldSpellings, lastValue } from '../contract/flag-args'

export { isLoopbackHost } from '../contract/client-url'

export const HOST_FLAGS = fieldSpellings('host')
export const PORT_FLAGS = fieldSpellings('port')
export const MODEL_FLAGS = fieldSpellings('model')
export const DRAFT_MODEL_FLAGS = fieldSpellings('draftModel')
export const API_KEY_FLAGS = [...fieldSpellings('apiKey'), ...fieldSpellings('apiKeyFile')]

// Inherited variables that silently change what llama-server does
// (ik_llama.cpp even applies them after the command line).
const SCRUBBED_PREFIXES = ['LLAMA_ARG_']
const SCRUBBED_NAMES = new Set([
  'LLAMA_API_KEY',
  'HF_TOKEN',
  'HUGGING_FACE_HUB_TOKEN',
  'LLAMA_LOG_VERBOSITY',
  'LLAMA_CHAT_TEMPLATE_KWARGS',
  'LLAMA_SERVER_ROUTER_PORT',
  'AIP_MODE',
  'AIP_HTTP_PORT',
])

/** The parent's environment without variables that would change llama-server's behaviour behind the profile's back. */
export function scrubEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) continue
    const upper = k.toUpperCase()
    if (SCRUBBED_NAMES.has(upper) || SCRUBBED_PREFIXES.some((p) => upper.startsWith(p))) continue
    out[k] = v
  }
  return out
}

export interface ResolvedEndpoint {
  readonly args: readonly string[]
  readonly host: string
  readonly port: number
  /** True when we picked the port (a bind race can then be retried with another). */
  readonly portChosen: boolean
}

/**
 * Where a server listens when its command does not say: a free port (the
 * default), the user's stable port, or, behind the endpoint, a private
 * loopback port whatever the command says.
 */
export type ListenPlan = { readonly kind: 'free' } | { readonly kind: 'port'; readonly port: number } | { readonly kind: 'private' }

/** The arguments without --host and --port (the endpoint decides where the server listens). */
export function withoutListenFlags(args: readonly string[]): string[] {
  const out: string[] = []
  const names = [...HOST_FLAGS, ...PORT_FLAGS] as readonly string[]
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string
    if (names.includes(a)) i++
    else if (!names.some((n) => a.startsWith(`${n}=`))) out.push(a)
  }
  return out
}

/**
 * Adds --host 127.0.0.1 and --port when the command lacks them.
 * `pickPort` is called only when the command sets no port (or port 0).
 */
export async function resolveEndpoint(args: readonly string[], pickPort: () => Promise<number>): Promise<ResolvedEndpoint> {
  const out = [...args]
  let host = lastValue(args, HOST_FLAGS)
  if (host === null) {
    host = '127.0.0.1'
    out.push('--host', host)
  }
  const portText = lastValue(args, PORT_FLAGS)
  const portValue = portText === null ? NaN : Number(portText)
  if (portText !== null && (!Number.isInteger(portValue) || portValue < 0 || portValue > 65535)) {
    throw new RangeError(`--port ${portText} is not a port number (0-65535)`)
  }
  if (portText !== null && portValue !== 0) return { args: out, host, port: portValue, portChosen: false }
  const port = await pickPort()
  if (portText !== null) {
    // Replace "--port 0" in place rather than adding a second --port.
    for (let i = 0; i < out.length; i++) {
      if (out[i] === '--port') out[i + 1] = String(port)
      else if (out[i]?.startsWith('--port=')) out[i] = `--port=${port}`
    }
  } else {
    out.push('--port', String(port))
  }
  return { args: out, host, port, portChosen: true }
}
