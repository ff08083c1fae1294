import { open } from 'node:fs/promises'
import { basename } from 'node:path'
import { GgufError } from './gguf-error'

/**
 * A bounded reader of a GGUF header (the metadata and the tensor table).
 *
 * Every count and length is checked against the bytes left in the file and a
 * sane ceiling before anything is allocated or looped over, so a hostile or
 * corrupt header costs at most its own size in time and memory. It replaces
 * @huggingface/gguf for local files because that reader pads a short file
 * with zeros (it cannot tell truncation from a header of empty strings),
 * overwrites duplicate keys, and bounds counts by absolute limits only (a
 * 100-byte file may claim ten million tensors).
 */

/** One metadata value: numbers (64-bit integers as bigint), strings, booleans, or a flat array of those. */
export type GgufValue = number | bigint | string | boolean | readonly (number | bigint | string | boolean)[]

export interface GgufTensorInfo {
  readonly name: string
  readonly shape: readonly number[]
  readonly typeId: number
  /** Offset from the start of the tensor data. */
  readonly offset: number
}

export interface GgufHeader {
  readonly version: number
  /** Key → value; a prototype-free object, so a key such as "__proto__" is plain data. */
  readonly metadata: Readonly<Record<string, GgufValue>>
  readonly tensors: readonly GgufTensorInfo[]
  /** Where the tensor data starts (the header end, padded to the alignment). */
  readonly dataOffset: number
  readonly alignment: number
}

/** Ceilings well above any real model (the largest have ~2,000 tensors, ~60 keys and headers of ~20 MB). */
export const GGUF_LIMITS = {
  headerBytes: 64 * 2 ** 20,
  tensors: 1_000_000,
  keys: 65_536,
  keyBytes: 65_535,
  /** Items of one metadata array (the largest vocabularies and merge lists have ~260,000). */
  arrayItems: 2 ** 22,
  /** GGML_MAX_DIMS. */
  dims: 4,
  /** Elements of one dimension (2^40: a row longer than any file). */
  dimension: 2 ** 40,
  alignment: 2 ** 16,
} as const

const T = { U8: 0, I8: 1, U16: 2, I16: 3, U32: 4, I32: 5, F32: 6, BOOL: 7, STRING: 8, ARRAY: 9, U64: 10, I64: 11, F64: 12 } as const
/** Bytes of a fixed-size value by type; strings take at least their 8-byte length. */
const MIN_BYTES = [1, 1, 2, 2, 4, 4, 4, 1, 8, 12, 8, 8, 8]
const MIN_KV_BYTES = 8 + 4 + 1
const MIN_TENSOR_BYTES = 8 + 4 + 4 + 8

/** Thrown inside the parse when it needs bytes of the file not read yet; the reader reads more and parses again. */
class NeedMoreBytes {
  constructor(readonly upTo: number) {}
}

const thousands = (n: number | bigint): string => n.toLocaleString('en-US')

/** A key or name from the file, for a message: quoted, control characters escaped, at most 60 characters. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)
}

class Cursor {
  pos = 0
  constructor(
    private readonly bytes: Buffer,
    private readonly fileSize: number,
    private readonly file: string,
  ) {}

  left(): number {
    return this.fileSize - this.pos
  }

  fail(why: string): never {
    throw new GgufError(this.file, why)
  }

  private need(n: number): number {
    const at = this.pos
    if (at + n > this.fileSize) this.fail(`it is truncated (its header runs past the end of the ${thousands(this.fileSize)}-byte file)`)
    if (at + n > GGUF_LIMITS.headerBytes) this.fail(`its header is larger than ${GGUF_LIMITS.headerBytes / 2 ** 20} MiB`)
    if (at + n > this.bytes.length) throw new NeedMoreBytes(at + n)
    this.pos += n
    return at
  }

  u8 = (): number => this.bytes.readUInt8(this.need(1))
  i8 = (): number => this.bytes.readInt8(this.need(1))
  u16 = (): number => this.bytes.readUInt16LE(this.need(2))
  i16 = (): number => this.bytes.readInt16LE(this.need(2))
  u32 = (): number => this.bytes.readUInt32LE(this.need(4))
  i32 = (): number => this.bytes.readInt32LE(this.need(4))
  f32 = (): number => this.bytes.readFloatLE(this.need(4))
  f64 = (): number => this.bytes.readDoubleLE(this.need(8))
  u64 = (): bigint => this.bytes.readBigUInt64LE(this.need(8))
  i64 = (): bigint => this.bytes.readBigInt64LE(this.need(8))

  /** A u64 count, which `each` bytes per item must fit in what is left of the file, and at most `max`. */
  count(what: string, each: number, max: number): number {
    const n = this.u64()
    const fits = Math.floor(this.left() / each)
    if (n > BigInt(Math.min(max, fits))) {
      this.fail(
        n > BigInt(max)
          ? `it claims ${thousands(n)} ${what}, more than the ${thousands(max)} a model can have`
          : `it is truncated or corrupt (it claims ${thousands(n)} ${what}, more than its ${thousands(this.fileSize)} bytes can hold)`,
      )
    }
    return Number(n)
  }

  string(what: string, max = Number.MAX_SAFE_INTEGER): string {
    const n = this.count(`bytes in ${what}`, 1, max)
    const at = this.need(n)
    return this.bytes.toString('utf8', at, at + n)
  }
}

function readScalar(c: Cursor, type: number, what: string): number | bigint | string | boolean {
  switch (type) {
    case T.U8:
      return c.u8()
    case T.I8:
      return c.i8()
    case T.U16:
      return c.u16()
    case T.I16:
      return c.i16()
    case T.U32:
      return c.u32()
    case T.I32:
      return c.i32()
    case T.F32:
      return c.f32()
    case T.BOOL:
      return c.u8() !== 0
    case T.STRING:
      return c.string(what)
    case T.U64:
      return c.u64()
    case T.I64:
      return c.i64()
    case T.F64:
      return c.f64()
    default:
      return c.fail(`${what} has an unknown value type ${type}`)
  }
}

function readValue(c: Cursor, type: number, key: string): GgufValue {
  if (type !== T.ARRAY) return readScalar(c, type, `the value of ${quoted(key)}`)
  const itemType = c.u32()
  // llama.cpp's own reader refuses nested arrays too.
  if (itemType === T.ARRAY) c.fail(`${quoted(key)} is an array of arrays`)
  if (itemType >= MIN_BYTES.length) c.fail(`${quoted(key)} is an array of an unknown value type ${itemType}`)
  const n = c.count(`items in ${quoted(key)}`, MIN_BYTES[itemType] as number, GGUF_LIMITS.arrayItems)
  const items = new Array<number | bigint | string | boolean>(n)
  for (let i = 0; i < n; i++) items[i] = readScalar(c, itemType, `item ${i} of ${quoted(key)}`)
  return items
}

/** general.alignment: a power of two (32 when absent), as llama.cpp requires. */
function alignmentOf(metadata: Readonly<Record<string, GgufValue>>, c: Cursor): number {
  const a = metadata['general.alignment'] ?? 32
  if (typeof a === 'number' && Number.isInteger(a) && a >= 1 && a <= GGUF_LIMITS.alignment && (a & (a - 1)) === 0) return a
  return c.fail(`its general.alignment ${String(a).slice(0, 40)} is not a power of two up to ${GGUF_LIMITS.alignment}`)
}

/** Parses a header from the first bytes of a file of `fileSize` bytes; throws NeedMoreBytes when `bytes` is too short. */
function parse(bytes: Buffer, fileSize: number, file: string): GgufHeader {
  const c = new Cursor(bytes, fileSize, file)
  if (fileSize < 4 || bytes.toString('latin1', 0, 4) !== 'GGUF') c.fail('it is not a GGUF file (it does not start with "GGUF")')
  c.pos = 4
  const version = c.u32()
  if (version !== 2 && version !== 3) c.fail(`its GGUF version ${version} is not one llama.cpp reads (2 or 3)`)
  const tensorCount = c.count('tensors', MIN_TENSOR_BYTES, GGUF_LIMITS.tensors)
  const keyCount = c.count('metadata keys', MIN_KV_BYTES, GGUF_LIMITS.keys)
  const metadata: Record<string, GgufValue> = Object.create(null) as Record<string, GgufValue>
  for (let i = 0; i < keyCount; i++) {
    const key = c.string(`metadata key ${i}`, GGUF_LIMITS.keyBytes)
    if (Object.hasOwn(metadata, key)) c.fail(`it has a duplicate key ${quoted(key)}`)
    const type = c.u32()
    if (type >= MIN_BYTES.length) c.fail(`${quoted(key)} has an unknown value type ${type}`)
    metadata[key] = readValue(c, type, key)
  }
  const alignment = alignmentOf(metadata, c)
  const names = new Set<string>()
  const tensors = new Array<GgufTensorInfo>(tensorCount)
  for (let i = 0; i < tensorCount; i++) {
    const name = c.string(`the name of tensor ${i}`, GGUF_LIMITS.keyBytes)
    if (names.has(name)) c.fail(`it has a duplicate tensor ${quoted(name)}`)
    names.add(name)
    const dims = c.u32()
    if (dims > GGUF_LIMITS.dims) c.fail(`tensor ${quoted(name)} has ${dims} dimensions (at most ${GGUF_LIMITS.dims})`)
    const shape = new Array<number>(dims)
    for (let d = 0; d < dims; d++) {
      const n = c.u64()
      if (n > BigInt(GGUF_LIMITS.dimension)) c.fail(`tensor ${quoted(name)} has a dimension of ${thousands(n)}`)
      shape[d] = Number(n)
    }
    const typeId = c.u32()
    const offset = c.u64()
    // An offset past the file's end is truncation, which the caller reports with the tensor sizes.
    if (offset % BigInt(alignment) !== 0n)
      c.fail(`tensor ${quoted(name)} has a data offset ${thousands(offset)} off its ${alignment}-byte alignment`)
    tensors[i] = { name, shape, typeId, offset: Number(offset) }
  }
  const dataOffset = Math.ceil(c.pos / alignment) * alignment
  return { version, metadata, tensors, dataOffset, alignment }
}

const FIRST_READ_BYTES = 2 * 2 ** 20

/**
 * Reads the header of the GGUF at `path`: the first 2 MiB, then twice as much
 * each time the header goes on, never past the file's end or the header
 * ceiling. Throws GgufError (named after the file's base name) for anything
 * that is not a well-formed header.
 */
export async function readGgufHeader(path: string): Promise<GgufHeader> {
  const file = basename(path)
  const handle = await open(path, 'r')
  try {
    const fileSize = (await handle.stat()).size
    let bytes = Buffer.alloc(0)
    let want = Math.min(fileSize, FIRST_READ_BYTES)
    for (;;) {
      if (want > bytes.length) {
        const more = Buffer.alloc(want)
        bytes.copy(more)
        const { bytesRead } = await handle.read(more, bytes.length, want - bytes.length, bytes.length)
        bytes = more.subarray(0, bytes.length + bytesRead)
      }
      try {
        return parseGgufHeader(bytes, fileSize, file)
      } catch (err) {
        // The file changed under us (shorter than its size said): report it as truncated.
        if (!(err instanceof NeedMoreBytes) || bytes.length < want)
          throw err instanceof NeedMoreBytes ? new GgufError(file, 'it is truncated (it was shorter than its size when read)') : err
        want = Math.min(fileSize, GGUF_LIMITS.headerBytes, Math.max(err.upTo, want * 2))
      }
    }
  } finally {
    await handle.close()
  }
}

/**
 * parse, for bytes already in memory (the fuzzers call it): throws GgufError,
 * or NeedMoreBytes when `bytes` holds less of the file than the header needs.
 */
export function parseGgufHeader(bytes: Buffer, fileSize: number, file: string): GgufHeader {
  return parse(bytes, fileSize, file)
}

/** Whether an error from parseGgufHeader only means "read more of the file". */
export const needsMoreBytes = (err: unknown): boolean => err instanceof NeedMoreBytes
