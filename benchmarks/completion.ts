import { request } from 'node:http'

export interface Completion {
  readonly predictedPerSecond: number
  readonly promptPerSecond: number
  /** Speculative decoding: tokens drafted and accepted (absent without a draft or MTP head). */
  readonly draftN?: number
  readonly draftAccepted?: number
}

/** One non-streamed /completion (no prompt cache, EOS ignored): the server's own decode and prompt rates. */
export function completeOnce(baseUrl: string, nPredict: number, prompt = 'Hello'): Promise<Completion> {
  const body = JSON.stringify({ prompt, n_predict: nPredict, ignore_eos: true, cache_prompt: false })
  const url = new URL('/completion', baseUrl)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          try {
            const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
              timings?: { predicted_per_second?: number; prompt_per_second?: number; draft_n?: number; draft_n_accepted?: number }
            }
            const pps = json.timings?.predicted_per_second
            const prompt = json.timings?.prompt_per_second
            if (typeof pps !== 'number' || typeof prompt !== 'number') throw new Error(`no timings in the answer (HTTP ${res.statusCode})`)
            const t = json.timings
            resolve({
              predictedPerSecond: pps,
              promptPerSecond: prompt,
              ...(typeof t?.draft_n === 'number' ? { draftN: t.draft_n, draftAccepted: t.draft_n_accepted ?? 0 } : {}),
            })
          } catch (err) {
            reject(err instanceof Error ? err : new Error(String(err)))
          }
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}
