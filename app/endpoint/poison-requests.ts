import { createHash } from 'node:crypto'

/** How long a body that crashed the server is refused at once instead of crashing it again. */
export const POISON_REFUSAL_MS = 3 * 60_000

/**
 * Bodies the server crashed on, by their hash, each until its refusal ends: a client that
 * retries such a request gets the error at once instead of taking the model down again.
 */
export class PoisonRequests {
  private readonly until = new Map<string, number>()

  constructor(private readonly now: () => number = Date.now) {}

  /** Notes that the server went away while it held this body. */
  crashedOn(body: Buffer): void {
    this.forgetEnded()
    this.until.set(hashOf(body), this.now() + POISON_REFUSAL_MS)
  }

  /** Whether this body crashed the server within the refusal time. */
  refuses(body: Buffer): boolean {
    const end = this.until.get(hashOf(body))
    return end !== undefined && end > this.now()
  }

  private forgetEnded(): void {
    const now = this.now()
    for (const [hash, end] of this.until) if (end <= now) this.until.delete(hash)
  }
}

function hashOf(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex')
}
