/**
 * llama-server's channel to a router, used by us for every server we start (llama.cpp's
 * tools/server/server-models.cpp, `server_child`, verified on the pinned build). Started with
 * LLAMA_SERVER_ROUTER_PORT set and stdin a pipe, llama-server:
 * - writes `cmd_child_to_router:state:{"state":…,"payload":…}` lines to stdout: `loading` with
 *   `{"stages":[…],"current":"text_model","value":0.42}` (at most one per 200 ms, the first and last always;
 *   the projector's stage has no value), `ready` (with the model's info, or nothing after a wake), `sleeping`,
 *   and `loading` again when a request wakes a sleeping server;
 * - once ready, reads stdin: the line `cmd_router_to_child:exit` shuts it down cleanly (exit 0), and EOF makes
 *   it exit (code 1), so a supervisor that dies takes its server along. While it loads it reads nothing.
 * Parse and write only: the supervisor decides what a message means for its state.
 */
import { z } from 'zod'
import type { ServerLoadProgress } from '../contract/server-state'

export const CHILD_STATE_PREFIX = 'cmd_child_to_router:state:'
export const EXIT_COMMAND = 'cmd_router_to_child:exit'
/** Its presence (any value) turns the channel on; llama.cpp's router passes its own port, which the child does not use. */
export const CHANNEL_ENV = 'LLAMA_SERVER_ROUTER_PORT'

const LoadingPayload = z.object({
  stages: z.array(z.string()).optional(),
  current: z.string().optional(),
  // The projector's stage says only {"stage":"mmproj_model"}.
  stage: z.string().optional(),
  value: z.number().finite().min(0).max(1).optional(),
})

const StateLine = z.discriminatedUnion('state', [
  z.object({ state: z.literal('loading'), payload: LoadingPayload }),
  z.object({ state: z.literal('ready'), payload: z.unknown().optional() }),
  z.object({ state: z.literal('sleeping'), payload: z.unknown().optional() }),
  z.object({ state: z.literal('downloading'), payload: z.unknown().optional() }),
])

/** What one channel line says. */
export type ChildMessage =
  | { readonly kind: 'loading'; readonly progress: ServerLoadProgress }
  | { readonly kind: 'ready' }
  | { readonly kind: 'sleeping' }
  | { readonly kind: 'downloading' }

/** A line that starts like the channel's but could not be read: logged, never fatal. */
export interface MalformedChildLine {
  readonly kind: 'malformed'
  readonly detail: string
}

/**
 * The message of a channel line; null for any other log line. The prefix may follow leftovers of the
 * logger on the same line (a colour reset: llama-server starts each message with a newline for that).
 */
export function parseChildLine(line: string): ChildMessage | MalformedChildLine | null {
  const at = line.indexOf(CHILD_STATE_PREFIX)
  if (at === -1) return null
  let json: unknown
  try {
    json = JSON.parse(line.slice(at + CHILD_STATE_PREFIX.length))
  } catch (err) {
    return { kind: 'malformed', detail: `not JSON: ${(err as Error).message}` }
  }
  const parsed = StateLine.safeParse(json)
  if (!parsed.success) return { kind: 'malformed', detail: parsed.error.issues[0]?.message ?? 'unexpected shape' }
  const msg = parsed.data
  if (msg.state !== 'loading') return { kind: msg.state }
  const stage = msg.payload.current ?? msg.payload.stage ?? 'text_model'
  const stages = msg.payload.stages ?? [stage]
  return { kind: 'loading', progress: { stage, stages, value: msg.payload.value ?? null } }
}

/** What stop writes to the server's stdin; the server acts on it once it is ready. */
export function exitCommandLine(): string {
  return `${EXIT_COMMAND}\n`
}

/** Whether a channel line is a state the supervisor acts on (every parsed line but a malformed one). */
export function isChildMessage(m: ChildMessage | MalformedChildLine | null): m is ChildMessage {
  return m !== null && m.kind !== 'malformed'
}

/**
 * Mainline's router children came with router mode (build b7150 and later, December 2025, before the
 * semver versions "v0.x" began): older mainline builds and ik_llama.cpp have no channel. An engine never
 * probed, or of unknown version, is offered it too; the first channel line confirms it, and until one comes
 * the supervisor behaves as without it (the estimate, signals).
 */
const FIRST_BUILD_WITH_CHANNEL = 7150

export function offersChildChannel(engine: { readonly fork: string; readonly version: string | null } | null): boolean {
  if (!engine) return true
  if (engine.fork === 'ik_llama') return false
  const build = /^b?(\d+)$/.exec(engine.version ?? '')?.[1]
  return build === undefined || Number(build) >= FIRST_BUILD_WITH_CHANNEL
}
