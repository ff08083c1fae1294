import { request } from 'node:http'

export interface StreamedCompletion {
  /** performance.now() when the first token arrived. */
  readonly firstTokenAt: number
  readonly endAt: number
  readonly chunks: number
  /** performance.now() when each token chunk arrived (the closing chunk with the timings left out). */
  readonly tokenTimes: readonly number[]
  readonly timings: Record<string, number>
  readonly slotId: number | null
}

/** An outside client: POST /completion with stream: true, read to the end. */
export function streamCompletion(baseUrl: string, body: Record<string, unknown>, apiKey?: string): Promise<StreamedCompletion> {
  const url = new URL('/completion', baseUrl)
  const payload = JSON.stringify({ stream: true, ...body })
  return new Promise((resolvePromise, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
    if (apiKey) headers.authorization = `Bearer ${apiKey}`
    const req = request({ hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent: false, headers }, (res) => {
      if (res.statusCode !== 200) {
        res.resume()
        reject(new Error(`/completion answered ${res.statusCode}`))
        return
      }
      let buffer = ''
      let firstTokenAt: number | null = null
      let chunks = 0
      const tokenTimes: number[] = []
      let timings: Record<string, number> | null = null
      let slotId: number | null = null
      res.setEncoding('utf8')
      res.on('data', (text: string) => {
        buffer += text
        let idx: number
        while ((idx = buffer.indexOf('\n')) !== -1) {
          const line = buffer.slice(0, idx).trim()
          buffer = buffer.slice(idx + 1)
          if (!line.startsWith('data: ')) continue
          let obj: { content?: string; timings?: Record<string, number>; id_slot?: number; stop?: boolean }
          try {
            obj = JSON.parse(line.slice(6)) as typeof obj
          } catch {
            continue
          }
          chunks++
          if (firstTokenAt === null) firstTokenAt = performance.now()
          if (obj.stop !== true) tokenTimes.push(performance.now())
          if (typeof obj.id_slot === 'number') slotId = obj.id_slot
          if (obj.timings) timings = obj.timings
        }
      })
      res.on('end', () => {
        if (firstTokenAt === null || timings === null) reject(new Error('stream ended without tokens or timings'))
        else resolvePromise({ firstTokenAt, endAt: performance.now(), chunks, tokenTimes, timings, slotId })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(payload)
  })
}
