import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TINY } from '../../../test/support/advisor/fixtures'
import { llamaServerBin } from '../../../test/helpers/llama-server-bin'
import { importCommand } from '../../profiles/import-command'
import { ProfileStore } from '../../profiles/store'
import { UsageError } from '../cli-error'
import { lintCommand } from './lint'
import { cliIo } from '../../../test/helpers/cli-io'

let home: string
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'llama-tray-lint-cli-'))
})
afterAll(() => rm(home, { recursive: true, force: true }))

async function lint(args: string[]): Promise<{ code: number; out: string }> {
  const io = cliIo(home)
  const code = await lintCommand.run(args, io)
  return { code, out: io.out() }
}

describe('llama-tray lint', () => {
  it('--cmd with the real mainline v0.5.0 binary and the tiny models: --no-mmap is an error (exit 1), with its fix', async () => {
    const cmd = `${llamaServerBin()} -m ${TINY('tiny-target.gguf')} --n-cpu-moe 4 --no-mmap -c 65536 -md ${TINY('tiny-draft.gguf')}`
    const { code, out } = await lint(['--cmd', cmd, '--platform', 'linux', '--json'])
    expect(code).toBe(1)
    const report = JSON.parse(out) as { fork: string; findings: { id: string; level: string }[]; notes: string[] }
    expect(report.fork).toBe('mainline')
    expect(report.findings.map((f) => f.id).sort()).toEqual([
      'lint.auto-slots',
      'lint.ctx-above-training',
      'lint.draft-unused',
      'lint.fit-hand-picked',
      'lint.flag-rejected:--no-mmap',
    ])
    expect(report.notes).toEqual([])
  })

  it('a clean command exits 0; text output says so', async () => {
    const { code, out } = await lint(['--cmd', `${llamaServerBin()} -m ${TINY('tiny-target.gguf')} -c 4096 -np 1`])
    expect(out).toContain('No findings.')
    expect(code).toBe(0)
  })

  it('lints a stored profile by name, naming what it could not read', async () => {
    const store = await ProfileStore.open(home)
    await store.upsert(importCommand('/nowhere/llama-server -m /nowhere/m.gguf --host 0.0.0.0 -c 4096 -c 8192', { name: 'exposed' }))
    const { code, out } = await lint(['exposed', '--platform', 'win32'])
    expect(code).toBe(1)
    expect(out).toContain('error  lint.exposed-without-key')
    expect(out).toContain('warn   lint.duplicate-flag:-c')
    expect(out).toContain('fix: Listen on 127.0.0.1 only (remove --host; add --host 127.0.0.1)')
    expect(out).toContain('Note: Binary /nowhere/llama-server not found here')
  })

  it.each([
    [[], /one profile, or --cmd/],
    [['a', '--cmd', 'x'], /one profile, or --cmd/],
    [['--cmd', 'x', '--platform', 'beos'], /--platform takes win32, linux or darwin/],
    [['nope'], /No profile "nope"/],
    [['--cmd', 'run.bat -m x'], /script/],
  ])('%j is a usage error', async (args, message) => {
    await expect(lint(args)).rejects.toThrow(UsageError)
    await expect(lint(args)).rejects.toThrow(message)
  })
})
