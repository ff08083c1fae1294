import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { EndpointError } from '../../app/endpoint/openai-error'
import { modelOf, readBody } from '../../app/endpoint/read-body'
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS, WorstCase } from './fuzz-runs'

/** A request: its body arrives in the given chunks, with the given content type. */
function request(chunks: readonly Uint8Array[], contentType: string | undefined): IncomingMessage {
  const req = Readable.from(chunks.map((c) => Buffer.from(c))) as unknown as IncomingMessage
  Object.assign(req, { headers: contentType === undefined ? {} : { 'content-type': contentType } })
  return req
}

const JSON_BODIES = [
  '{"model":"qwen","messages":[]}',
  '{"model":{"__proto__":1}}',
  '{"model":',
  '[1,2]',
  'null',
  '{"model":"\u001b[31m"}',
  '\u0000',
  '{"a":'.repeat(2000),
]

describe('fuzzing the endpoint body reader', () => {
  it(
    'readBody gives back exactly the bytes up to its limit and a 413 EndpointError past it; modelOf never throws',
    async () => {
      const worst = new WorstCase('endpoint body')
      const body = fc.oneof(
        fc.array(fc.uint8Array({ maxLength: 512 }), { maxLength: 12 }),
        fc.constantFrom(...JSON_BODIES).map((t) => [new TextEncoder().encode(t)]),
      )
      await fc.assert(
        fc.asyncProperty(
          body,
          fc.integer({ min: 0, max: 4096 }),
          fc.option(fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', 'multipart/form-data'), {
            nil: undefined,
          }),
          async (chunks, max, type) => {
            const total = chunks.reduce((n, c) => n + c.length, 0)
            await worst.measure(`${total} bytes in ${chunks.length} chunks`, async () => {
              try {
                // readBody takes MiB (the setting endpointMaxBodyMiB): the fuzzer's byte limit as a fraction of one.
                const got = await readBody(request(chunks, type), max / (1024 * 1024))
                expect(total).toBeLessThanOrEqual(max)
                expect(got.equals(Buffer.concat(chunks.map((c) => Buffer.from(c))))).toBe(true)
                const model = modelOf(request([], type), got)
                expect(model === undefined || got.length > 0).toBe(true)
              } catch (err) {
                if (!(err instanceof EndpointError)) throw err
                expect(err.status).toBe(413)
                expect(total).toBeGreaterThan(max)
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
