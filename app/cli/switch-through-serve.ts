import type { SwitchControlEvent } from '../endpoint/control-route'
import { SWITCH_CONTROL_PATH } from '../endpoint/control-route'
import { keyProblemSentence, readKeyFile } from '../supervisor/api-key-rules'
import { UsageError } from './cli-error'
import type { ServeRecord } from '../core/serve-record'

/** A switch the running serve could not make: its one sentence (the profile failed to start, or was refused). */
export class SwitchFailedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SwitchFailedError'
  }
}

export interface SwitchThroughServe {
  /** What the serve said when it took the switch: what it waits for, with the estimate. */
  readonly accepted: Extract<SwitchControlEvent, { event: 'accepted' }>
  /** Resolves when the profile serves; rejects with SwitchFailedError when it failed. Absent with `wait: false`. */
  readonly done: Promise<void> | null
}

async function keyFor(record: ServeRecord): Promise<string | null> {
  if (record.apiKeyFile === null) return null
  const read = await readKeyFile(record.apiKeyFile)
  if (!read.ok) throw new UsageError(keyProblemSentence(read.problem))
  return read.keys[0] ?? null
}

/** The NDJSON events of the answer, one at a time. */
async function* events(body: ReadableStream<Uint8Array>): AsyncGenerator<SwitchControlEvent> {
  const decoder = new TextDecoder()
  let rest = ''
  for await (const chunk of body) {
    rest += decoder.decode(chunk, { stream: true })
    let nl: number
    while ((nl = rest.indexOf('\n')) >= 0) {
      const line = rest.slice(0, nl).trim()
      rest = rest.slice(nl + 1)
      if (line !== '') yield JSON.parse(line) as SwitchControlEvent
    }
  }
}

/** The serve's refusal as its own sentence (an OpenAI-style error body), else the status. */
async function refusal(res: Response): Promise<string> {
  const text = await res.text().catch(() => '')
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message
    if (typeof message === 'string') return message
  } catch {
    // not JSON: said by status below
  }
  return `The running Llama Tray endpoint answered HTTP ${res.status} to the switch; see its output.`
}

/**
 * Asks the running `serve` to switch to `profileId` through its core's scheduler (the same as a request naming the
 * profile), authenticated with its key file when it has one. With `wait`, `done` follows the switch to its end.
 */
export async function switchThroughServe(record: ServeRecord, profileId: string, wait: boolean): Promise<SwitchThroughServe> {
  const key = await keyFor(record)
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (key !== null) headers.authorization = `Bearer ${key}`
  let res: Response
  try {
    res = await fetch(`${record.origin}${SWITCH_CONTROL_PATH}`, { method: 'POST', headers, body: JSON.stringify({ profile: profileId }) })
  } catch (err) {
    throw new SwitchFailedError(
      `The running Llama Tray endpoint (pid ${record.pid}) did not answer at ${record.origin} (${(err as Error).message}); ` +
        'check that it still runs.',
    )
  }
  if (!res.ok || !res.body) throw new SwitchFailedError(await refusal(res))
  const stream = events(res.body)
  const first = await stream.next()
  if (first.done || first.value.event !== 'accepted')
    throw new SwitchFailedError('The running Llama Tray endpoint ended the switch request without an answer; see its output.')
  if (!wait) {
    await stream.return(undefined) // the switch goes on in the serve: it does not depend on this connection
    return { accepted: first.value, done: null }
  }
  const done = (async (): Promise<void> => {
    for await (const e of stream) {
      if (e.event !== 'done') continue
      if (!e.ok) throw new SwitchFailedError(e.error)
      return
    }
    throw new SwitchFailedError('The running Llama Tray endpoint stopped before the switch finished; see its output.')
  })()
  return { accepted: first.value, done }
}
