import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { call } from '../../../test/support/endpoint/client'
import { importArgv } from '../../profiles/import-command'
import { ProfileStore } from '../../profiles/store'
import { findFreePort, isPortInUse } from '../../supervisor/free-port'
import { runCli, startCli } from '../../../test/helpers/cli'
import { llamaServerBin } from '../../../test/helpers/llama-server-bin'
import { model } from '../../../test/helpers/paths'
import { isRunning, waitUntil } from '../../../test/helpers/processes'

describe('llama-tray serve (the built CLI, the real llama-server)', () => {
  let home: string

  beforeAll(async () => {
    const bin = llamaServerBin()
    home = mkdtempSync(join(tmpdir(), 'llama-tray-serve-'))
    const store = await ProfileStore.open(home)
    await store.upsert(importArgv([bin, '-m', model('tiny-target.gguf'), '-c', '1024', '-np', '1', '-t', '1'], { name: 'alpha' }))
  }, 900_000)
  afterAll(() => rmSync(home, { recursive: true, force: true }))

  it('serves a request on its one port, prints its figures, and Ctrl+C leaves nothing behind', async () => {
    const port = await findFreePort()
    const cli = startCli(['--home', home, 'serve', '--port', String(port), '--json'])
    const events = (): {
      event: string
      endpoint?: { url: string }
      status?: { pid: number | null }
      figures?: { status: number; profileId: string }
    }[] => cli.stdoutLines.map((l) => JSON.parse(l) as never)
    await waitUntil(() => events().some((e) => e.event === 'listening'), 30_000, 'the endpoint to listen')
    expect(events()[0]?.endpoint?.url).toBe(`http://127.0.0.1:${port}/v1`)
    const answer = await call(port, 'POST', '/v1/chat/completions', {
      model: 'alpha',
      max_tokens: 2,
      messages: [{ role: 'user', content: 'hi' }],
    })
    expect(answer.status, answer.body).toBe(200)
    await waitUntil(() => events().some((e) => e.event === 'request'), 10_000, 'the request figures')
    expect(events().find((e) => e.event === 'request')?.figures).toMatchObject({ status: 200, profileId: 'alpha' })
    const pids = events().flatMap((e) => (e.status?.pid ? [e.status.pid] : []))
    expect(pids.length).toBeGreaterThan(0)

    cli.child.kill('SIGINT')
    const result = await cli.done
    expect(result.code, result.stderr).toBe(0)
    for (const pid of new Set(pids)) expect(isRunning(pid), `llama-server pid ${pid}`).toBe(false)
    expect(await isPortInUse(port)).toBe(false)
  }, 120_000)

  it('runs a pinned profile beside the one requested, answers both, and Ctrl+C stops both', async () => {
    const store = await ProfileStore.open(home)
    const embedArgv = [llamaServerBin(), '-m', model('tiny-draft.gguf'), '--embeddings', '--pooling', 'mean', '-c', '512', '-t', '1']
    await store.upsert({ ...importArgv(embedArgv, { name: 'embed' }), pinned: true })
    const port = await findFreePort()
    const cli = startCli(['--home', home, 'serve', '--port', String(port), '--json'])
    type Line = { event: string; server?: { profileId: string; state: string; pid: number | null }; status?: { pid: number | null } }
    const events = (): Line[] => cli.stdoutLines.map((l) => JSON.parse(l) as Line)
    try {
      await waitUntil(() => events().some((e) => e.event === 'pinned' && e.server?.state === 'ready'), 120_000, 'the pinned server')
      const embedded = await call(port, 'POST', '/v1/embeddings', { model: 'embed', input: 'hi' })
      expect(embedded.status, embedded.body).toBe(200)
      const chat = await call(port, 'POST', '/v1/chat/completions', {
        model: 'alpha',
        max_tokens: 2,
        messages: [{ role: 'user', content: 'hi' }],
      })
      expect(chat.status, chat.body).toBe(200)
    } finally {
      cli.child.kill('SIGINT')
    }
    const result = await cli.done
    expect(result.code, result.stderr).toBe(0)
    const pids = events().flatMap((e) => [e.server?.pid, e.status?.pid].filter((p): p is number => typeof p === 'number'))
    expect(events().filter((e) => e.event === 'pinned' && e.server?.pid).length).toBeGreaterThan(0)
    for (const pid of new Set(pids)) expect(isRunning(pid), `llama-server pid ${pid}`).toBe(false)
    await store.setPinned('embed', false)
  }, 300_000)

  it('refuses a taken port, naming the program that holds it and a free port', async () => {
    const holder = createServer()
    const port = await new Promise<number>((resolve) =>
      holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)),
    )
    try {
      const result = await runCli(['--home', home, 'serve', '--port', String(port)])
      expect(result.code).toBe(2)
      expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use by `)
      if (process.platform === 'linux') expect(result.stderr).toContain(`(pid ${process.pid})`)
      expect(result.stderr).toMatch(/use port \d+ \(free now\)/)
    } finally {
      holder.close()
    }
  }, 60_000)
})
