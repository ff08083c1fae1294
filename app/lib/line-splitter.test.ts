import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LineSplitter } from './line-splitter'

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

  it('cuts lines longer than the limit', () => {
    const lines = split(['x'.repeat(25)], 10)
    expect(lines).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)])
  })

  it('property: rejoining the lines gives the text back, and no line exceeds the limit', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme-ascii' })), fc.integer({ min: 1, max: 50 }), (parts, max) => {
        const text = parts.join('\n')
        const chunks = text.match(/[\s\S]{1,7}/g) ?? []
        const lines = split(chunks, max)
        for (const l of lines) expect(l.length).toBeLessThanOrEqual(max)
        const normalised = text.replace(/\r\n|\r/g, '\n')
        expect(lines.join('')).toBe(normalised.split('\n').join(''))
      }),
      { numRuns: 1000 },
    )
  })
})
