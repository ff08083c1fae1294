import { request } from 'node:http'
import { z } from 'zod'

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
}

export interface CompletionRequest {
  readonly host: string
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
export function complete(req: CompletionRequest): Promise<ServerTimings> {
  const body = JSON.stringify({ prompt: req.prompt, n_predict: req.nPredict, ignore_eos: true, seed: req.seed, cache_prompt: false, stream: false })
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) }
  if (req.apiKey) headers.authorization = `Bearer ${req.apiKey}`
  return new Promise((resolve, reject) => {
    const http = request({ host: req.host, port: req.port, path: '/completion', method: 'POST', agent: false, headers, signal: req.signal, timeout: req.timeoutMs ?? 600_000 }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('error', reject)
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        if (res.statusCode !== 200) return reject(new CompletionError(`llama-server answered HTTP ${res.statusCode ?? '?'} to /completion: ${text.slice(0, 200)}`))
        let json: unknown
        try {
          json = JSON.parse(text)
        } catch {
          return reject(new CompletionError('llama-server sent a /completion answer that is not JSON'))
        }
        const parsed = ResponseSchema.safeParse(json)
        if (!parsed.success) return reject(new CompletionError('the /completion answer has no timings (is this a llama-server?)'))
        resolve(parsed.data.timings)
      })
    })
    http.on('timeout', () => http.destroy(new CompletionError('the /completion request timed out')))
    http.on('error', reject)
    http.end(body)
  })
}
