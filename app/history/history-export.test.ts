import { describe, expect, it } from 'vitest'
import { exportRequests } from './history-export'
import { historyRequest } from '../../test/support/history/rows'

describe('exportRequests', () => {
  const rows = [historyRequest({ time: Date.UTC(2026, 10, 30, 12), error: 'bad "input", twice' }), historyRequest({ path: '=cmd|x' })]

  it('writes CSV with a header and a row per request, quoting what needs it', () => {
    const lines = exportRequests(rows, 'csv').trimEnd().split('\r\n')
    expect(lines).toHaveLength(3)
    expect(lines[0]!.split(',')).toContain('generatedTokens')
    expect(lines[1]).toContain('2026-11-30T12:00:00.000Z')
    expect(lines[1]).toContain('"bad ""input"", twice"')
    expect(lines[2]).toContain(",'=cmd|x,") // never a formula in a spreadsheet
  })

  it('writes JSON rows under the contract names, and a Markdown table', () => {
    expect(JSON.parse(exportRequests(rows, 'json'))).toEqual(rows)
    const md = exportRequests(rows, 'md').trimEnd().split('\n')
    expect(md).toHaveLength(4)
    expect(md[3]).toContain('=cmd\\|x')
  })
})
