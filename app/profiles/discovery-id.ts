import { createHash } from 'node:crypto'

/** A short stable id for a discovered file: the same path gives the same id on every run. */
export function discoveryId(prefix: 'b' | 'm', realPath: string): string {
  return `${prefix}-${createHash('sha256').update(realPath).digest('hex').slice(0, 10)}`
}
