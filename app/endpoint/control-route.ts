import type { ServerResponse } from 'node:http'
import type { Result } from '../contract/commands'
import type { ServerStatus } from '../contract/server-state'
import type { PendingSwitch } from '../contract/snapshot'
import { EndpointError } from './openai-error'

/**
 * Llama Tray's own control path on the endpoint (not an OpenAI path): `llama-tray profiles use <id>` asks the
 * running `serve` to switch here, so the switch goes through its core's scheduler like any request.
 */
export const SWITCH_CONTROL_PATH = '/llama-tray/v1/switch'

/** What the control route needs of the core: its scheduler's switch and what it says while the switch waits. */
export interface SwitchControl {
  /** Resolves once `profileId` serves (or failed to start); a running profile asked for again resolves at once. */
  request(profileId: string): Promise<Result<ServerStatus>>
  /** The waiting switch, with its estimate; null when none waits. */
  pending(): PendingSwitch | null
  /** The profile a decided or loading switch goes to; null when none. */
  switchingTo(): string | null
  status(): ServerStatus
}

/** One NDJSON line of the answer: first `accepted` (what the switch waits for), then `done`. */
export type SwitchControlEvent =
  | { readonly event: 'accepted'; readonly profileId: string; readonly pendingSwitch: PendingSwitch | null; readonly status: ServerStatus }
  | { readonly event: 'done'; readonly ok: true; readonly status: ServerStatus }
  | { readonly event: 'done'; readonly ok: false; readonly error: string }

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 20))

/** The profile named by the body `{"profile": "<id>"}`, or the refusal. */
function profileOf(body: Buffer): string {
  let parsed: unknown
  try {
    parsed = JSON.parse(body.toString('utf8'))
  } catch {
    parsed = null
  }
  const profile = (parsed as { profile?: unknown } | null)?.profile
  if (typeof profile !== 'string' || profile === '')
    throw new EndpointError(400, 'invalid_request_error', 'The switch request names no profile; send {"profile": "<id>"}.', 'no_profile')
  return profile
}

/**
 * Asks the scheduler for the switch and answers NDJSON: `accepted` once the scheduler holds the switch (or
 * has begun it), then `done` when the profile serves or failed. The switch does not depend on the connection:
 * a client that leaves after `accepted` (`--no-wait`) leaves it to happen.
 */
export async function answerSwitchControl(
  res: ServerResponse,
  body: Buffer,
  control: SwitchControl,
  knownProfiles: readonly string[],
): Promise<void> {
  const profileId = profileOf(body)
  if (!knownProfiles.includes(profileId))
    throw new EndpointError(404, 'not_found_error', `No profile "${profileId}"; llama-tray profiles list shows the ids.`, 'no_such_profile')
  let settled: Result<ServerStatus> | null = null
  const outcome = control.request(profileId).then((r) => (settled = r))
  // The scheduler checks the profile before it holds the switch: wait until a switch waits or begins, or it answers.
  while (settled === null && control.pending() === null && control.switchingTo() === null) await tick()
  const send = (event: SwitchControlEvent): void => {
    if (!res.destroyed) res.write(`${JSON.stringify(event)}\n`)
  }
  res.writeHead(200, { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' })
  send({ event: 'accepted', profileId, pendingSwitch: control.pending(), status: control.status() })
  const result = await outcome
  if (!result.ok) send({ event: 'done', ok: false, error: result.error.sentence })
  // Withdrawn meanwhile by a choice of the running profile (the app's "Keep"): the switch asked for here did not happen.
  else if (result.value.profileId !== profileId)
    send({
      event: 'done',
      ok: false,
      error: `The switch to profile "${profileId}" was withdrawn in Llama Tray: "${result.value.profileId}" keeps running.`,
    })
  else send({ event: 'done', ok: true, status: result.value })
  if (!res.destroyed) res.end()
}
