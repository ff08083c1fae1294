import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HistoryDay, HistoryRequest } from '../../app/contract/history'
import { importArgv } from '../../app/profiles/import-command'
import { ProfileStore } from '../../app/profiles/store'
import { findFreePort } from '../../app/supervisor/free-port'
import { call } from '../support/endpoint/client'
import { runCli, startCli } from '../helpers/cli'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { isRunning, waitUntil } from '../helpers/processes'

interface Usage {
  readonly prompt_tokens: number
  readonly completion_tokens: number
  readonly prompt_tokens_details?: { readonly cached_tokens?: number }
}

// The usage history through the built CLI and the real llama-server: what a client was told is what is kept.
describe('the usage history (serve, the real llama-server)', () => {
  let home: string
  const usages: Usage[] = []

  beforeAll(async () => {
    const bin = llamaServerBin()
    home = mkdtempSync(join(tmpdir(), 'llama-tray-history-'))
    const store = await ProfileStore.open(home)
    await store.upsert(importArgv([bin, '-m', model('tiny-target.gguf'), '-c', '1024', '-np', '1', '-t', '1'], { name: 'alpha' }))
  }, 900_000)
  afterAll(() => rmSync(home, { recursive: true, force: true }))

  it('keeps each request with the usage the server returned, even when serve is killed 2 s after the last', async () => {
    const port = await findFreePort()
    const cli = startCli(['--home', home, 'serve', '--port', String(port), '--json'])
    type Line = { event: string; status?: { pid: number | null } }
    const events = (): Line[] => cli.stdoutLines.map((l) => JSON.parse(l) as Line)
    const pids = (): number[] => events().flatMap((e) => (e.status?.pid ? [e.status.pid] : []))
    try {
      await waitUntil(() => events().some((e) => e.event === 'listening'), 60_000, 'the endpoint to listen')
      for (const content of ['hi', 'hi', 'tell me more about llamas']) {
        const answer = await call(port, 'POST', '/v1/chat/completions', {
          model: 'alpha',
          max_tokens: 4,
          messages: [{ role: 'user', content }],
        })
        expect(answer.status, answer.body).toBe(200)
        usages.push((JSON.parse(answer.body) as { usage: Usage }).usage)
      }
      await waitUntil(() => events().filter((e) => e.event === 'request').length === 3, 30_000, 'the three requests')
      // Two seconds after the last request, as a crash or a closed laptop lid would: no clean exit.
      await new Promise((r) => setTimeout(r, 2000))
      cli.child.kill('SIGKILL')
      await cli.done
    } finally {
      cli.child.kill('SIGKILL')
      for (const pid of new Set(pids())) if (isRunning(pid)) process.kill(pid, 'SIGKILL')
    }

    const listed = await runCli(['--home', home, 'history', '--json'])
    expect(listed.code, listed.stderr).toBe(0)
    const rows = JSON.parse(listed.stdout) as HistoryRequest[]
    expect(rows).toHaveLength(3)
    rows.forEach((row, i) => {
      const usage = usages[i]!
      expect(row).toMatchObject({ profileId: 'alpha', path: '/v1/chat/completions', status: 200, error: null })
      expect(row.promptTokens).toBe(usage.prompt_tokens)
      expect(row.generatedTokens).toBe(usage.completion_tokens)
      expect(row.cachedTokens).toBe(usage.prompt_tokens_details?.cached_tokens ?? 0)
      expect(row.generationPerSecond).toBeGreaterThan(0)
      expect(row.durationMs).toBeGreaterThan(0)
    })
  }, 300_000)

  it('sums --by day to the rows, and exports a CSV with a header and a row per request', async () => {
    const rows = JSON.parse((await runCli(['--home', home, 'history', '--json'])).stdout) as HistoryRequest[]
    const days = JSON.parse((await runCli(['--home', home, 'history', '--by', 'day', '--json'])).stdout) as HistoryDay[]
    const sum = (k: 'promptTokens' | 'generatedTokens' | 'cachedTokens'): number => rows.reduce((s, r) => s + (r[k] ?? 0), 0)
    expect(days.reduce((s, d) => s + d.requests, 0)).toBe(rows.length)
    expect(days.reduce((s, d) => s + d.promptTokens, 0)).toBe(sum('promptTokens'))
    expect(days.reduce((s, d) => s + d.generatedTokens, 0)).toBe(sum('generatedTokens'))
    expect(days.reduce((s, d) => s + d.cachedTokens, 0)).toBe(sum('cachedTokens'))

    const out = join(home, 'export.csv')
    const exported = await runCli(['--home', home, 'history', 'export', '--format', 'csv', '--out', out])
    expect(exported.code, exported.stderr).toBe(0)
    expect(exported.stderr).toBe(`Wrote 3 requests to ${out}.\n`)
    const lines = readFileSync(out, 'utf8').trimEnd().split('\r\n')
    expect(lines[0]).toMatch(/^time,profileId,profileName,.*,promptTokens,cachedTokens,generatedTokens,/)
    expect(lines).toHaveLength(1 + rows.length)
    expect(lines.slice(1).every((l) => l.includes(',alpha,'))).toBe(true)
  }, 120_000)
})
