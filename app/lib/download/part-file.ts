import { createHash, type Hash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile, rm, stat, truncate, writeFile } from 'node:fs/promises'
import { pipeline } from 'node:stream/promises'

/**
 * What we know about a `.part` file, kept beside it as `<part>.json` so a
 * resume can send `If-Range` (a changed file on the server then answers 200
 * and the download restarts instead of splicing two versions).
 */
export interface PartMeta {
  readonly url: string
  readonly validator: string | null
}

export const metaPath = (part: string): string => `${part}.json`

export async function partSize(part: string): Promise<number> {
  try {
    const s = await stat(part)
    return s.isFile() ? s.size : 0
  } catch {
    return 0
  }
}

export async function readPartMeta(part: string): Promise<PartMeta | null> {
  try {
    const m = JSON.parse(await readFile(metaPath(part), 'utf8')) as Partial<PartMeta>
    return typeof m.url === 'string' ? { url: m.url, validator: typeof m.validator === 'string' ? m.validator : null } : null
  } catch {
    return null
  }
}

export const writePartMeta = (part: string, meta: PartMeta): Promise<void> => writeFile(metaPath(part), JSON.stringify(meta))

/** Empties the part (a fresh start) and forgets its validator. */
export async function resetPart(part: string): Promise<void> {
  if ((await partSize(part)) > 0) await truncate(part, 0)
  await rm(metaPath(part), { force: true })
}

export async function removePart(part: string): Promise<void> {
  await rm(part, { force: true })
  await rm(metaPath(part), { force: true })
}

/** A sha256 already fed with the part's first `bytes` bytes (what a resume appends to). */
export async function hashOfPart(part: string, bytes: number): Promise<Hash> {
  const hash = createHash('sha256')
  if (bytes > 0)
    await pipeline(createReadStream(part, { start: 0, end: bytes - 1 }), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) hash.update(chunk)
    })
  return hash
}
