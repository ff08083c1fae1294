import fc from 'fast-check'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CUT_MARK, LineSplitter } from '../../app/lib/line-splitter'
import { RotatingLogFile } from '../../app/supervisor/log-file'
import { FUZZ_RUNS, FUZZ_TIMEOUT_MS } from './fuzz-runs'

// Issue #42: the log reader (splitter + rotating file) against random byte streams, cut at random places:
// every line within the limit (or cut and marked), nothing held past a limit, no file past its rotation size.
const scratch = mkdtempSync(join(tmpdir(), 'llama-tray-log-fuzz-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let n = 0

const LIMIT = 64
const stream = fc.array(
  fc.oneof(
    fc.uint8Array({ maxLength: 300 }),
    fc.constantFrom(Buffer.from('\n'), Buffer.from('\r\n'), Buffer.from('\r'), Buffer.from('é'), Buffer.alloc(500, 'x')),
  ),
  { maxLength: 40 },
)

describe('the log reader against random streams', () => {
  it(
    'lines stay within the limit, the splitter holds at most one limit, and rotation holds its size',
    async () => {
      await fc.assert(
        fc.asyncProperty(stream, async (chunks) => {
          const path = join(scratch, `${n++}`, 'server.log')
          const log = new RotatingLogFile(path, { maxBytes: 2048, keep: 2, flushIntervalMs: 1, maxBufferedBytes: 4096 })
          const splitter = new LineSplitter((line) => {
            expect(line.length <= LIMIT || (line.endsWith(CUT_MARK) && line.length <= LIMIT + CUT_MARK.length)).toBe(true)
            expect(line).not.toMatch(/[\r\n]/)
            log.append(line)
          }, LIMIT)
          for (const c of chunks) {
            splitter.write(Buffer.from(c))
            expect((splitter as unknown as { pending: string }).pending.length).toBeLessThanOrEqual(LIMIT + 1)
          }
          splitter.end()
          await log.flush()
          const dir = join(path, '..')
          let files: string[] = []
          try {
            files = readdirSync(dir)
          } catch {
            return // nothing was written: an empty stream
          }
          expect(files.length).toBeLessThanOrEqual(3)
          for (const f of files) expect(statSync(join(dir, f)).size).toBeLessThanOrEqual(2048)
        }),
        { numRuns: FUZZ_RUNS },
      )
    },
    FUZZ_TIMEOUT_MS,
  )
})
