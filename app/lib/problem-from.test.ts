import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { problem } from '../contract/problem'
import { failed, failedFrom } from './failed'
import { problemFrom } from './problem-from'

describe('problemFrom', () => {
  it('lets a domain error say itself', () => {
    const err = Object.assign(new Error('ignored'), { toProblem: () => problem('model', 'gone: pull it again', { details: 'raw' }) })
    expect(problemFrom(err)).toEqual({ kind: 'model', sentence: 'Gone: pull it again.', details: 'raw' })
  })

  it('names the refused fields of a schema error, the raw issues behind Details', () => {
    const parsed = z.object({ port: z.number() }).safeParse({ port: 'x' })
    if (parsed.success) throw new Error('the schema accepted a string port')
    const p = problemFrom(parsed.error)
    expect(p.kind).toBe('input')
    expect(p.sentence).toMatch(/^Some values were refused \(port: .+\): correct them and try again\.$/)
    expect(p.details).toContain('"port"')
  })

  it('says a read-only home, a full disk or a file for the home folder in one sentence with the fix, not as a bug', async () => {
    const home = mkdtempSync(join(tmpdir(), 'llama-tray-env-'))
    const file = join(home, 'not-a-folder')
    writeFileSync(file, '')
    const err = await mkdir(join(file, 'run'), { recursive: true }).catch((e: unknown) => e)
    const p = problemFrom(err)
    expect(p.kind).toBe('settings')
    expect(p.sentence).toMatch(/a file stands where a folder should be: move the file, or set LLAMA_TRAY_HOME elsewhere\.$/)
    expect(p.details).toContain(file)
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', path: '/h/settings.json' })
    expect(problemFrom(full).sentence).toBe('Llama Tray cannot write its files because their disk is full: free some space and try again.')
    const readOnly = Object.assign(new Error('EROFS: read-only file system, open'), { code: 'EROFS' })
    expect(problemFrom(readOnly).sentence).toMatch(/disk is read-only: make it writable/)
    rmSync(home, { recursive: true, force: true })
  })

  it('says an unexpected error is a bug, with its stack as details', () => {
    const err = new TypeError('cannot read properties of undefined (reading "id").')
    const p = problemFrom(err)
    expect(p).toMatchObject({
      kind: 'internal',
      sentence: 'Something went wrong: cannot read properties of undefined (reading "id"). Copy the details into a bug report.',
    })
    expect(p.details).toBe(err.stack)
    expect(problemFrom('thrown text')).toEqual({
      kind: 'internal',
      sentence: 'Something went wrong: thrown text. Copy the details into a bug report.',
      details: 'thrown text',
    })
  })

  it('wraps both as failed Results', () => {
    expect(failed('busy', 'a model is already being downloaded: wait for it to finish')).toEqual({
      ok: false,
      error: { kind: 'busy', sentence: 'A model is already being downloaded: wait for it to finish.' },
    })
    expect(failedFrom(new Error('boom'))).toMatchObject({ ok: false, error: { kind: 'internal' } })
  })
})
