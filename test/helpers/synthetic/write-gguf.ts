import { open } from 'node:fs/promises'
import { tensorBytes } from '../../../app/fit/ggml-types'

/**
 * A metadata value: the GGUF type is chosen from the JS type (u32 for whole
 * numbers, f32 otherwise, string, bool, arrays of those); `{ f32 }` forces f32
 * for a whole number (llama.cpp checks the type, e.g. of rope.freq_base), `{ u64 }` a 64-bit count.
 */
export type SyntheticValue =
  number | string | boolean | { readonly f32: number } | { readonly u64: bigint } | readonly number[] | readonly string[]

export interface SyntheticTensor {
  readonly name: string
  /** ggml order: shape[0] is the row length. */
  readonly shape: readonly number[]
  readonly typeId: number
}

export interface SyntheticGguf {
  readonly metadata: Readonly<Record<string, SyntheticValue>>
  /** More [key, value] pairs written after the metadata: they may repeat a key, as a corrupt file does. */
  readonly extraEntries?: readonly (readonly [string, SyntheticValue])[]
  readonly tensors: readonly SyntheticTensor[]
}

const ALIGN = 32
const T_U32 = 4
const T_I32 = 5
const T_F32 = 6
const T_BOOL = 7
const T_STRING = 8
const T_ARRAY = 9
const T_U64 = 10

class ByteWriter {
  private chunks: Buffer[] = []
  length = 0
  private push(b: Buffer): void {
    this.chunks.push(b)
    this.length += b.length
  }
  u32(n: number): void {
    const b = Buffer.alloc(4)
    b.writeUInt32LE(n)
    this.push(b)
  }
  i32(n: number): void {
    const b = Buffer.alloc(4)
    b.writeInt32LE(n)
    this.push(b)
  }
  u64(n: number | bigint): void {
    const b = Buffer.alloc(8)
    b.writeBigUInt64LE(BigInt(n))
    this.push(b)
  }
  f32(n: number): void {
    const b = Buffer.alloc(4)
    b.writeFloatLE(n)
    this.push(b)
  }
  str(s: string): void {
    const b = Buffer.from(s, 'utf8')
    this.u64(b.length)
    this.push(b)
  }
  bytes(b: Buffer): void {
    this.push(b)
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks)
  }
}

function writeValue(w: ByteWriter, v: SyntheticValue): void {
  if (typeof v === 'string') {
    w.u32(T_STRING)
    w.str(v)
  } else if (typeof v === 'boolean') {
    w.u32(T_BOOL)
    w.bytes(Buffer.from([v ? 1 : 0]))
  } else if (typeof v === 'number') {
    if (Number.isInteger(v) && v >= 0) {
      w.u32(T_U32)
      w.u32(v)
    } else {
      w.u32(T_F32)
      w.f32(v)
    }
  } else if (!Array.isArray(v) && 'u64' in v) {
    w.u32(T_U64)
    w.u64(v.u64)
  } else if (!Array.isArray(v)) {
    w.u32(T_F32)
    w.f32((v as { f32: number }).f32)
  } else {
    w.u32(T_ARRAY)
    const strings = v.length > 0 && typeof v[0] === 'string'
    w.u32(strings ? T_STRING : T_I32)
    w.u64(v.length)
    for (const x of v) {
      if (typeof x === 'string') w.str(x)
      else w.i32(x)
    }
  }
}

const pad = (n: number): number => Math.ceil(n / ALIGN) * ALIGN

/**
 * Writes a GGUF v3 file with the given metadata and tensor table. The tensor
 * data is not written: the file is extended to its full size with a sparse
 * hole (zeros), so a 20 GB model costs only its header on disk.
 * Resolves to the file's size in bytes.
 */
export async function writeSyntheticGguf(path: string, spec: SyntheticGguf): Promise<number> {
  const w = new ByteWriter()
  w.bytes(Buffer.from('GGUF', 'ascii'))
  w.u32(3)
  w.u64(spec.tensors.length)
  const entries = [...Object.entries(spec.metadata), ...(spec.extraEntries ?? [])]
  w.u64(entries.length)
  for (const [k, v] of entries) {
    w.str(k)
    writeValue(w, v)
  }
  let offset = 0
  for (const t of spec.tensors) {
    w.str(t.name)
    w.u32(t.shape.length)
    for (const d of t.shape) w.u64(d)
    w.u32(t.typeId)
    w.u64(offset)
    offset = pad(offset + tensorBytes(t.typeId, t.shape))
  }
  const header = w.toBuffer()
  const dataStart = pad(header.length)
  const size = dataStart + offset
  const fh = await open(path, 'w')
  try {
    await fh.write(header, 0, header.length, 0)
    await fh.truncate(size)
  } finally {
    await fh.close()
  }
  return size
}
