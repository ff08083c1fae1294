import { EndpointError } from './openai-error'

interface Holder {
  readonly target: string
  readonly resolve: () => void
  readonly reject: (err: EndpointError) => void
}

/**
 * Requests held until their profile's server is ready: at most `max` at once
 * (more are refused at once), each for at most `waitMs`, and never past a
 * client that went away.
 */
export class HoldQueue {
  private readonly holders = new Set<Holder>()

  constructor(private readonly limits: () => { readonly max: number; readonly waitMs: number }) {}

  get size(): number {
    return this.holders.size
  }

  /** Resolves when `release(target)` is called; rejects on reject(), the wait's end, or the signal. */
  hold(target: string, signal: AbortSignal): Promise<void> {
    const { max, waitMs } = this.limits()
    if (this.holders.size >= max) {
      return Promise.reject(new EndpointError(503, 'unavailable_error', `${max} requests are already waiting for the server to be ready; try again shortly (the limit is the setting "held requests")`, 'queue_full'))
    }
    return new Promise<void>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
        this.holders.delete(holder)
      }
      const holder: Holder = {
        target,
        resolve: () => {
          done()
          resolve()
        },
        reject: (err) => {
          done()
          reject(err)
        },
      }
      const onAbort = (): void => holder.reject(new EndpointError(499, 'invalid_request_error', 'the client went away', 'client_closed'))
      const timer = setTimeout(
        () => holder.reject(new EndpointError(503, 'unavailable_error', `profile "${target}" was not ready within ${Math.round(waitMs / 1000)} s; try again, or see Llama Tray's log (the wait is the setting "held request wait")`, 'wait_timeout')),
        waitMs,
      )
      signal.addEventListener('abort', onAbort, { once: true })
      this.holders.add(holder)
      if (signal.aborted) onAbort()
    })
  }

  release(target: string): void {
    for (const h of [...this.holders]) if (h.target === target) h.resolve()
  }

  reject(target: string | null, err: EndpointError): void {
    for (const h of [...this.holders]) if (target === null || h.target === target) h.reject(err)
  }
}
