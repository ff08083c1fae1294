import { createServer, type Server } from 'node:http'
import type { EndpointRequestFigures, EndpointStatus } from '../contract/endpoint'
import { clientBaseUrl, isLoopbackHost } from '../contract/client-url'
import { Listeners } from '../lib/listeners'
import { keyProblem, keyProblemSentence, MIN_API_KEY_LENGTH, type KeyProblem } from '../supervisor/api-key-rules'
import { portTakenMessage } from '../supervisor/port-holder/port-holder'
import type { EndpointBackend } from './backend'
import { EndpointRouter } from './router'

const NO_KEY = (host: string): KeyProblem => ({
  reason: `listening on ${host} lets other machines in`,
  hint: `set an API key of at least ${MIN_API_KEY_LENGTH} characters (llama-tray serve --api-key-file FILE), or use --host 127.0.0.1`,
})

export interface EndpointOptions {
  readonly host: string
  readonly port: number
  /** Required (and checked: api-key-rules.ts) for a host other machines can reach; checked at the endpoint. */
  readonly apiKey: string | null
}

export interface EndpointEvents {
  request: (figures: EndpointRequestFigures) => void
}

export type ListenResult =
  { readonly ok: true; readonly status: EndpointStatus } | { readonly ok: false; readonly error: string; readonly freePort: number | null }

/**
 * The one OpenAI-compatible listener clients use. It stays on its port while
 * the server behind it starts, crashes, restarts and switches profiles.
 */
export class Endpoint {
  private readonly server: Server
  private readonly router: EndpointRouter
  private readonly events = new Listeners<EndpointEvents>()
  private listening = false
  private lastRequest: EndpointRequestFigures | null = null
  private boundPort: number

  constructor(
    private readonly options: EndpointOptions,
    backend: EndpointBackend,
  ) {
    this.boundPort = options.port
    this.router = new EndpointRouter(backend, options.host, options.apiKey, (figures) => {
      this.lastRequest = figures
      this.events.emit('request', figures)
    })
    this.server = createServer((req, res) => void this.router.handle(req, res))
    // Long prompts on a CPU can take minutes before the first byte: no request timeout of our own.
    this.server.requestTimeout = 0
    this.server.headersTimeout = 60_000
    // Longer than clients keep an idle connection (undici: 4 s), so that they, not we, close it: no reuse of a socket we just closed.
    this.server.keepAliveTimeout = 65_000
  }

  on<E extends keyof EndpointEvents>(event: E, listener: EndpointEvents[E]): () => void {
    return this.events.on(event, listener)
  }

  /** Binds the port; a port taken by another program is refused with its name and a port that is free now. */
  async listen(): Promise<ListenResult> {
    const { host, port, apiKey } = this.options
    if (!isLoopbackHost(host)) {
      const problem = apiKey === null ? NO_KEY(host) : keyProblem(apiKey, 'the endpoint options')
      if (problem) return { ok: false, error: keyProblemSentence(problem), freePort: null }
    }
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      this.server.once('error', resolve)
      this.server.listen({ host, port, exclusive: true }, () => {
        this.server.off('error', resolve)
        resolve(null)
      })
    })
    if (error) {
      if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES')
        return { ok: false, error: `cannot listen on ${host}:${port}: ${error.message}`, freePort: null }
      const taken = await portTakenMessage(port, host)
      const free = taken.freePort
      const ways = `set Settings → Port, run llama-tray settings set port ${free}, or start llama-tray serve --port ${free}`
      return { ok: false, error: `${taken.reason}: stop that program, or use port ${free} (free now): ${ways}`, freePort: free }
    }
    const address = this.server.address()
    if (address && typeof address === 'object') this.boundPort = address.port
    this.listening = true
    return { ok: true, status: this.status() }
  }

  status(): EndpointStatus {
    const { host } = this.options
    return {
      url: clientBaseUrl(host, this.boundPort),
      host,
      port: this.boundPort,
      listening: this.listening,
      problem: null,
      held: this.router.held,
      lastRequest: this.lastRequest,
    }
  }

  /** Answers the held requests, closes every connection (streams included) and the port. */
  async close(): Promise<void> {
    await this.router.close()
    this.listening = false
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve())
      this.server.closeAllConnections()
    })
    this.events.clear()
  }
}
