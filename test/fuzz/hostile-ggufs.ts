import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { GGML_TYPE_ID } from '../../app/fit/ggml-types'
import { writeSyntheticGguf, type SyntheticGguf } from '../helpers/synthetic/write-gguf'
import { MODELS } from '../helpers/paths'

/**
 * The hostile GGUFs of issue #26, written by our own GGUF writer into a
 * folder: each is a few hundred bytes, and each hung or misled the old reader.
 */

const small = (metadata: SyntheticGguf['metadata'], extraEntries?: SyntheticGguf['extraEntries']): SyntheticGguf => ({
  metadata: { 'general.architecture': 'qwen3', 'qwen3.embedding_length': 64, 'qwen3.attention.head_count': 4, ...metadata },
  ...(extraEntries ? { extraEntries } : {}),
  tensors: [{ name: 'token_embd.weight', shape: [64, 32], typeId: GGML_TYPE_ID.f32 as number }],
})

/** GGUF v3 bytes by hand: magic, version, then the given u64 counts and raw bytes. */
function raw(...parts: (bigint | number | string | Buffer)[]): Buffer {
  const chunks = parts.map((p) => {
    if (typeof p === 'bigint') {
      const b = Buffer.alloc(8)
      b.writeBigUInt64LE(p)
      return b
    }
    if (typeof p === 'number') {
      const b = Buffer.alloc(4)
      b.writeUInt32LE(p)
      return b
    }
    return typeof p === 'string' ? Buffer.from(p, 'latin1') : p
  })
  return Buffer.concat([Buffer.from('GGUF'), ...chunks])
}

const key = (k: string): Buffer => Buffer.concat([raw(BigInt(k.length)).subarray(4), Buffer.from(k)])

export interface HostileGguf {
  readonly name: string
  /** What the error must say. */
  readonly why: RegExp
  readonly write: (path: string) => Promise<unknown>
}

const writeBytes =
  (bytes: Buffer) =>
  async (path: string): Promise<void> => {
    const { writeFile } = await import('node:fs/promises')
    await writeFile(path, bytes)
  }

export const HOSTILE_GGUFS: readonly HostileGguf[] = [
  {
    name: 'block-count-1e12.gguf',
    why: /qwen3\.block_count is 1000000000000, not a whole number from 1 to 4,096/,
    write: (p) => writeSyntheticGguf(p, small({ 'qwen3.block_count': { u64: 10n ** 12n } })),
  },
  {
    name: 'huge-embedding.gguf',
    why: /qwen3\.embedding_length is 4000000000/,
    write: (p) => writeSyntheticGguf(p, small({ 'qwen3.block_count': 2, 'qwen3.embedding_length': 4_000_000_000 })),
  },
  {
    name: 'duplicate-key.gguf',
    why: /duplicate key "qwen3\.block_count"/,
    write: (p) => writeSyntheticGguf(p, small({ 'qwen3.block_count': 2 }, [['qwen3.block_count', 3]])),
  },
  {
    name: 'truncated-header.gguf',
    why: /truncated/,
    write: writeBytes(readFileSync(join(MODELS, 'tiny-draft.gguf')).subarray(0, 200_000)),
  },
  // 2^63 tensors and 2^40 keys in a 24-byte file: the counts alone.
  { name: 'tensor-count-2e63.gguf', why: /claims 9,223,372,036,854,775,808 tensors/, write: writeBytes(raw(3, 2n ** 63n, 0n)) },
  // Under the old reader's absolute limit of 10^7 (10^7 took 17 s and 390 MB), yet more than a 24-byte file holds: it read zeros past the
  // end.
  {
    name: 'tensor-count-999999.gguf',
    why: /truncated or corrupt \(it claims 999,999 tensors, more than its 24 bytes can hold\)/,
    write: writeBytes(raw(3, 999_999n, 0n)),
  },
  {
    name: 'kv-count-2e40.gguf',
    why: /claims 1,099,511,627,776 metadata keys/,
    write: writeBytes(raw(3, 0n, 2n ** 40n, 'padding to look plausible')),
  },
  // One key whose string claims 2^62 bytes, one array that claims 2^60 items.
  {
    name: 'string-2e62.gguf',
    why: /claims 4,611,686,018,427,387,904 bytes in the value of "general\.name"/,
    write: writeBytes(raw(3, 0n, 1n, key('general.name'), 8, 2n ** 62n, 'x')),
  },
  // A key of 100 characters with line breaks and an escape, twice: the message quotes it on one line, shortened.
  {
    name: 'multiline-key.gguf',
    why: /duplicate key "x\\n\\u001b\[2Jx\\n/,
    write: writeBytes(raw(3, 0n, 2n, key('x\n\u001b[2J'.repeat(20)), 4, 1, key('x\n\u001b[2J'.repeat(20)), 4, 1)),
  },
  {
    name: 'array-2e60.gguf',
    why: /claims 1,152,921,504,606,846,976 items in "tokenizer\.ggml\.scores"/,
    write: writeBytes(raw(3, 0n, 1n, key('tokenizer.ggml.scores'), 9, 6, 2n ** 60n, Buffer.alloc(64))),
  },
]
