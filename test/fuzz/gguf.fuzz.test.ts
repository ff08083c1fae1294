import { readFileSync } from 'node:fs'
import { mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { FitError } from '../../app/fit/fit-error'
import { GgufError } from '../../app/fit/gguf-error'
import { parseGgufHeader, readGgufHeader } from '../../app/fit/gguf-header'
import { readGgufModel } from '../../app/fit/gguf-model'
import { MODELS } from '../helpers/paths'
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS, WorstCase } from './fuzz-runs'

const dirs: string[] = []
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))))

/** A valid header's structure is bounded by its bytes: nothing it returns can outgrow the input. */
function expectBounded(bytes: number, header: ReturnType<typeof parseGgufHeader>): void {
  expect(header.tensors.length * 24).toBeLessThanOrEqual(bytes)
  expect(Object.keys(header.metadata).length * 13).toBeLessThanOrEqual(bytes)
  for (const v of Object.values(header.metadata)) if (Array.isArray(v)) expect(v.length).toBeLessThanOrEqual(bytes)
}

const GGUF_V3 = Buffer.from([0x47, 0x47, 0x55, 0x46, 3, 0, 0, 0])
// Counts and lengths that break readers: 0, 1, 2^31, 2^32-1, 2^63, 2^64-1, 10^12.
const HOSTILE_U64 = [0n, 1n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 63n, 2n ** 64n - 1n, 10n ** 12n]

describe('fuzzing the GGUF reader (no throw but GgufError/FitError, output bounded by the input)', () => {
  it(
    'random bytes, with and without a GGUF v3 magic',
    () => {
      const worst = new WorstCase('gguf random bytes')
      fc.assert(
        fc.property(fc.boolean(), fc.uint8Array({ maxLength: 4096 }), (magic, body) => {
          const bytes = Buffer.concat([magic ? GGUF_V3 : Buffer.alloc(0), body])
          worst.measureSync(`${bytes.length} bytes`, () => {
            try {
              expectBounded(bytes.length, parseGgufHeader(bytes, bytes.length, 'fuzz.gguf'))
            } catch (err) {
              if (!(err instanceof GgufError)) throw err
              expect(err.message).toMatch(/^fuzz\.gguf is not a usable GGUF model: .+\. Re-download it\.$/s)
            }
          })
        }),
        { numRuns: FUZZ_RUNS },
      )
      worst.report()
    },
    FUZZ_TIMEOUT_MS,
  )

  it(
    'mutated headers of the tiny fixture models, read from disk by readGgufModel',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'llama-tray-fuzz-gguf-'))
      dirs.push(dir)
      const models = ['tiny-draft.gguf', 'tiny-target.gguf', 'tiny-draft-qwen35.gguf'].map((name) => {
        const whole = readFileSync(join(MODELS, name))
        return { name, size: whole.length, header: whole.subarray(0, 300_000) }
      })
      const worst = new WorstCase('gguf mutated fixture headers')
      const mutation = fc.oneof(
        fc.record({ kind: fc.constant('byte' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
        fc.record({ kind: fc.constant('u64' as const), at: fc.nat(), value: fc.constantFrom(...HOSTILE_U64) }),
        fc.record({ kind: fc.constant('u32' as const), at: fc.nat(), value: fc.constantFrom(0, 1, 13, 0x7fffffff, 0xffffffff) }),
        fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), value: fc.constant(0) }),
      )
      let run = 0
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: models.length - 1 }),
          fc.array(mutation, { minLength: 1, maxLength: 4 }),
          async (which, mutations) => {
            const model = models[which] as (typeof models)[number]
            let header = Buffer.from(model.header)
            let size = model.size
            for (const m of mutations) {
              // Most metadata lies in the first few kilobytes; aim half the mutations there.
              if (header.length <= 8) break
              const at = m.at % (m.at % 2 === 0 ? Math.min(4096, header.length - 8) : header.length - 8)
              if (m.kind === 'byte') header[at] = m.value
              else if (m.kind === 'u64') header.writeBigUInt64LE(m.value, at)
              else if (m.kind === 'u32') header.writeUInt32LE(m.value, at)
              else {
                header = header.subarray(0, at)
                size = at
              }
            }
            const path = join(dir, `m${run++ % 8}.gguf`)
            const fh = await open(path, 'w')
            await fh.write(header, 0, header.length, 0)
            await fh.truncate(size) // the tensor data as a sparse hole
            await fh.close()
            await worst.measure(
              `${model.name} ${JSON.stringify(mutations, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`,
              async () => {
                try {
                  const m = await readGgufModel(path)
                  expect(m.blockCount).toBeLessThanOrEqual(4096)
                  expect(m.layers.length).toBe(m.blockCount)
                } catch (err) {
                  if (!(err instanceof FitError)) throw err
                  expect(err.message).not.toMatch(/\n/)
                }
              },
            )
          },
        ),
        { numRuns: FUZZ_RUNS },
      )
      worst.report()
    },
    FUZZ_TIMEOUT_MS,
  )

  it(
    'random files read through readGgufHeader (the reads grow with the header, never past the file)',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'llama-tray-fuzz-gguf-'))
      dirs.push(dir)
      const worst = new WorstCase('gguf random files')
      await fc.assert(
        fc.asyncProperty(
          fc.uint8Array({ maxLength: 2048 }),
          fc.constantFrom(...HOSTILE_U64),
          fc.constantFrom(...HOSTILE_U64),
          async (body, tensors, keys) => {
            const counts = Buffer.alloc(16)
            counts.writeBigUInt64LE(tensors, 0)
            counts.writeBigUInt64LE(keys, 8)
            const path = join(dir, 'r.gguf')
            const fh = await open(path, 'w')
            await fh.write(Buffer.concat([GGUF_V3, counts, body]))
            await fh.close()
            await worst.measure(`${tensors} tensors, ${keys} keys`, async () => {
              try {
                expectBounded(24 + body.length, await readGgufHeader(path))
              } catch (err) {
                if (!(err instanceof GgufError)) throw err
              }
            })
          },
        ),
        { numRuns: FUZZ_RUNS },
      )
      worst.report()
    },
    FUZZ_TIMEOUT_MS,
  )
})
