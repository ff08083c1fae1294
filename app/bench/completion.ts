import { serverOrigin } from '../contract/client-url'
import { httpRequest } from '../lib/http-request'
import { z } from 'zod'
import { problem, type Problem } from '../contract/problem'

/** The part of llama-server's /completion `timings` a bench uses (mainline, ik_llama and buun). */
const TimingsSchema = z.object({
  prompt_n: z.number(),
  prompt_ms: z.number(),
  prompt_per_second: z.number(),
  predicted_n: z.number(),
  predicted_ms: z.number(),
  predicted_per_second: z.number(),
  draft_n: z.number().optional(),
  draft_n_accepted: z.number().optional(),
})

const ResponseSchema = z.object({ timings: TimingsSchema })

export type ServerTimings = z.infer<typeof TimingsSchema>

export class CompletionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CompletionError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('bench', this.message)
  }
}

export interface CompletionRequest {
  readonly host: string | null
  readonly port: number
  readonly apiKey: string | null
  readonly prompt: string
  readonly nPredict: number
  readonly seed: number
  readonly signal: AbortSignal
  readonly timeoutMs?: number
}

/**
 * One non-streamed POST /completion with a fixed generation length
 * (`ignore_eos`), a fixed seed and no prompt cache (so the prompt is processed
 * every run). Returns the server's own timings.
 */
export async function complete(req: CompletionRequest): Promise<ServerTimings> {
  const body = JSON.stringify({
    prompt: req.prompt,
    n_predict: req.nPredict,
    ignore_eos: true,
    seed: req.seed,
    cache_prompt: false,
    stream: false,
  })
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (req.apiKey) headers.authorization = `Bearer ${req.apiKey}`
  const r = await httpRequest({
    url: `${serverOrigin(req.host, req.port)}/completion`,
    method: 'POST',
    headers,
    body,
    timeoutMs: req.timeoutMs ?? 600_000,
    signal: req.signal,
  })
  if (r.kind === 'failed') {
    if (r.reason === 'aborted') throw abortError()
    if (r.reason === 'timeout') throw new CompletionError('the /completion request timed out')
    throw new CompletionError(`the /completion request failed: ${r.detail}`)
  }
  const text = r.body.toString('utf8')
  if (r.status !== 200) throw new CompletionError(`llama-server answered HTTP ${r.status} to /completion: ${text.slice(0, 200)}`)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new CompletionError('llama-server sent a /completion answer that is not JSON')
  }
  const parsed = ResponseSchema.safeParse(json)
  if (!parsed.success) throw new CompletionError('the /completion answer has no timings (is this a llama-server?)')
  return parsed.data.timings
}

/** What an aborted request throws, as Node's own http does (callers tell a cancel from a failure by the name). */
function abortError(): Error {
  const err = new Error('The operation was aborted')
  err.name = 'AbortError'
  return err
}
