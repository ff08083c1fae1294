import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ServerSupervisor } from '../../supervisor/supervisor'
import { serverUrl } from '../fetch-slots'
import { modelsDir, repoRoot } from './fixtures'

/** The real llama-server (scripts/llama-server-build.mjs: $LLAMA_SERVER_BIN, the cache, or a build). */
export async function llamaServerBinary(): Promise<string> {
  const script = pathToFileURL(resolve(repoRoot, 'scripts', 'llama-server-build.mjs')).href
  const mod = (await import(script)) as { ensureLlamaServer: () => string }
  return mod.ensureLlamaServer()
}

export interface TinyServer {
  readonly supervisor: ServerSupervisor
  readonly baseUrl: string
  /** Every log line since the start. */
  readonly lines: string[]
  stop(): Promise<void>
}

/** Starts llama-server on the tiny target model through the real supervisor, in a temp home. */
export async function startTinyServer(extraArgs: readonly string[] = [], onLine?: (line: string) => void): Promise<TinyServer> {
  const exe = await llamaServerBinary()
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-metrics-'))
  const supervisor = new ServerSupervisor({ home })
  const lines: string[] = []
  supervisor.on('log', (l) => {
    lines.push(l)
    onLine?.(l)
  })
  // One thread: a busy machine then slows the server in proportion instead of stalling its threads at a barrier.
  const args = ['-m', join(modelsDir, 'tiny-target.gguf'), '-c', '4096', '-np', '1', '-t', '1', '--seed', '1', ...extraArgs]
  const status = await supervisor.start({ profileId: 'tiny', exe, args })
  const stop = async (): Promise<void> => {
    await supervisor.dispose()
    rmSync(home, { recursive: true, force: true })
  }
  if (status.state !== 'ready' || status.port === null || status.host === null) {
    await stop()
    throw new Error(`llama-server did not start: ${status.state} ${status.lastExit?.reason ?? ''}\n${lines.slice(-20).join('\n')}`)
  }
  return { supervisor, baseUrl: serverUrl(status.host, status.port), lines, stop }
}

export interface StreamedCompletion {
  /** performance.now() when the first token arrived. */
  readonly firstTokenAt: number
  readonly endAt: number
  readonly chunks: number
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
          if (typeof obj.id_slot === 'number') slotId = obj.id_slot
          if (obj.timings) timings = obj.timings
        }
      })
      res.on('end', () => {
        if (firstTokenAt === null || timings === null) reject(new Error('stream ended without tokens or timings'))
        else resolvePromise({ firstTokenAt, endAt: performance.now(), chunks, timings, slotId })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(payload)
  })
}
