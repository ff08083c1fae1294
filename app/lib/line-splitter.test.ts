import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CUT_MARK, LineSplitter } from './line-splitter'

function split(chunks: (string | Buffer)[], max = 8192): string[] {
  const lines: string[] = []
  const s = new LineSplitter((l) => lines.push(l), max)
  for (const c of chunks) s.write(c)
  s.end()
  return lines
}

describe('LineSplitter', () => {
  it('splits on \\n, \\r\\n and \\r, across chunk boundaries', () => {
    expect(split(['a\nb', '\r', '\nc\rd', '\n'])).toEqual(['a', 'b', 'c', 'd'])
  })

  it('keeps multi-byte characters split across chunks', () => {
    const bytes = Buffer.from('héllo wörld\n')
    expect(split([bytes.subarray(0, 2), bytes.subarray(2, 9), bytes.subarray(9)])).toEqual(['héllo wörld'])
  })

  it('cuts a line longer than the limit once, marked, and drops its rest up to the newline', () => {
    const lines = split(['x'.repeat(25), 'y'.repeat(30), '\nnext\n'], 10)
    expect(lines).toEqual([`${'x'.repeat(10)}${CUT_MARK}`, 'next'])
  })

  it('a 20 MB line without a newline, in 64 KiB chunks, is one cut line and holds no more than a chunk', () => {
    const lines: string[] = []
    const s = new LineSplitter((l) => lines.push(l))
    const chunk = Buffer.alloc(64 * 1024, 'z')
    for (let i = 0; i < 320; i++) s.write(chunk)
    expect((s as unknown as { pending: string }).pending.length).toBeLessThanOrEqual(1)
    s.write('\r\nafter\n')
    s.end()
    expect(lines).toEqual([`${'z'.repeat(8192)}${CUT_MARK}`, 'after'])
  })

  it('property: each line is its input line, or the first max characters of it and the mark', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme-ascii' })), fc.integer({ min: 1, max: 50 }), (parts, max) => {
        const text = parts.join('\n')
        const chunks = text.match(/[\s\S]{1,7}/g) ?? []
        const lines = split(chunks, max)
        const expected = text
          .replace(/\r\n|\r/g, '\n')
          .split('\n')
          .map((l) => (l.length > max ? l.slice(0, max) + CUT_MARK : l))
        if (text.endsWith('\n') || text.endsWith('\r')) expected.pop()
        if (text === '') expected.pop()
        expect(lines).toEqual(expected)
      }),
      { numRuns: 1000 },
    )
  })
})

describe('LineSplitter at the end of a stream', () => {
  // Found by the log-reader fuzzer: a held-back \r, then an incomplete UTF-8 sequence flushed at the end.
  it('never puts a \\r inside the last line when the decoder flushes a broken character after it', () => {
    expect(split([Buffer.from([0x0d]), Buffer.from([0xc0])])).toEqual(['', '\ufffd'])
    expect(split([Buffer.from('a\r'), Buffer.from([0xe2, 0x82])])).toEqual(['a', '\ufffd'])
  })
})
