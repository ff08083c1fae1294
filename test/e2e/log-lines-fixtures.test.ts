import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { isFailureLine, loadPhase } from '../../renderer/src/lib/log-lines'
import { LLAMA_LOGS } from '../helpers/paths'

// The dashboard's log helpers over the real llama-server logs in test/fixtures
// (here, not next to the helpers: renderer/ may not read files).
describe('dashboard log helpers on real llama-server logs', () => {
  it('real logs: a phase from the first line on, tensors while loading, and every failed run has a highlighted line', () => {
    const files = readdirSync(LLAMA_LOGS).filter((f) => f.endsWith('.log'))
    expect(files.length).toBeGreaterThan(0)
    for (const f of files) {
      const lines = readFileSync(join(LLAMA_LOGS, f), 'utf8').split(/\r?\n/).filter(Boolean)
      expect(loadPhase(lines.slice(0, 1)), f).toBe('starting llama-server')
      const tensors = lines.findIndex((l) => l.includes('load_tensors:'))
      if (tensors >= 0) expect(loadPhase(lines.slice(0, tensors + 1)), f).toBe('loading tensors')
      if (f.startsWith('err_')) expect(lines.some(isFailureLine), f).toBe(true)
      else if (!f.includes('no_mmap')) expect(lines.filter(isFailureLine), f).toEqual([])
    }
  })
})
