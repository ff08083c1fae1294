import type { ServerResponse } from 'node:http'
import { problem, type Problem } from '../contract/problem'

/** OpenAI's error types, as clients (and llama-server) use them. */
export type OpenAiErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'unavailable_error'
  | 'server_error'

/** A request the endpoint answers itself with an OpenAI-style error. */
export class EndpointError extends Error {
  constructor(
    readonly status: number,
    readonly type: OpenAiErrorType,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message)
    this.name = 'EndpointError'
  }

  /** What views and the CLI show for it (clients get errorBody). */
  toProblem(): Problem {
    return problem(this.status < 500 ? 'input' : 'server', this.message, { details: `HTTP ${this.status} ${this.type}` })
  }
}

export function errorBody(err: EndpointError): string {
  return JSON.stringify({ error: { message: err.message, type: err.type, code: err.code ?? err.status } })
}

/** The error as one SSE event, to end a stream that broke after its headers were sent. */
export function errorEvent(err: EndpointError): string {
  return `data: ${errorBody(err)}\n\n`
}

export function sendError(res: ServerResponse, err: EndpointError): void {
  if (res.headersSent) {
    res.destroy()
    return
  }
  const body = errorBody(err)
  res.writeHead(err.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}
