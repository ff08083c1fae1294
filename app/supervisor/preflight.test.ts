import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { preflight, resolveExecutable } from './preflight'

const dir = mkdtempSync(join(tmpdir(), 'preflight-'))
const exe = join(dir, 'llama-server')
writeFileSync(exe, '#!/bin/sh\n')
chmodSync(exe, 0o755)
const notExe = join(dir, 'not-executable')
writeFileSync(notExe, '')
const gguf = join(dir, 'm.gguf')
writeFileSync(gguf, Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(16)]))
const html = join(dir, 'html.gguf')
writeFileSync(html, '<html>')

describe('preflight', () => {
  it('accepts a runnable binary and a GGUF model', async () => {
    expect(await preflight({ exe, args: ['-m', gguf] })).toEqual({ ok: true, exe })
  })

  it.each([
    ['a missing binary', { exe: join(dir, 'nope'), args: [] }, 'binary-missing'],
    ['a non-executable binary', { exe: notExe, args: [] }, 'binary-not-executable'],
    ['a batch file', { exe: 'C:\\llama\\start.bat', args: [] }, 'batch-file'],
    ['a .cmd file', { exe: 'run.CMD', args: [] }, 'batch-file'],
    ['a missing model', { exe, args: ['-m', join(dir, 'missing.gguf')] }, 'model-missing'],
    ['a folder as model', { exe, args: ['--model', dir] }, 'model-missing'],
    ['a model that is not GGUF', { exe, args: ['-m', html] }, 'model-corrupt'],
    ['a missing draft', { exe, args: ['-m', gguf, '-md', join(dir, 'd.gguf')] }, 'draft-missing'],
    ['0.0.0.0 without a key', { exe, args: ['-m', gguf, '--host', '0.0.0.0'] }, 'exposed-without-key'],
  ])('refuses %s', async (_name, input, kind) => {
    const r = await preflight(input)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.failure.kind).toBe(kind)
      expect(r.failure.reason.length).toBeGreaterThan(10)
      expect(r.failure.hint.length).toBeGreaterThan(5)
    }
  })

  it('allows a network host with an API key (flag or env)', async () => {
    expect((await preflight({ exe, args: ['--host', '0.0.0.0', '--api-key', 'k-12345678'] })).ok).toBe(true)
    expect((await preflight({ exe, args: ['--host', '0.0.0.0'], env: { LLAMA_API_KEY: 'k-12345678' } })).ok).toBe(true)
  })

  it('resolves a bare name through PATH', async () => {
    expect(await resolveExecutable('llama-server', { PATH: `/nonexistent:${dir}` })).toBe(exe)
    expect(await resolveExecutable('llama-server', { PATH: '/nonexistent' })).toBeNull()
  })
})
