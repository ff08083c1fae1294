import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SWITCH_CONTROL_PATH } from '../../endpoint/control-route'
import { importArgv } from '../../profiles/import-command'
import { ProfileStore } from '../../profiles/store'
import { findFreePort } from '../../supervisor/free-port'
import { runCli, startCli } from '../../../test/helpers/cli'
import { llamaServerBin } from '../../../test/helpers/llama-server-bin'
import { model } from '../../../test/helpers/paths'
import { waitUntil } from '../../../test/helpers/processes'
import { createStandardCore } from '../../core/create-core'

const KEY = 'test-key-for-the-switch-0123456789'

interface ServeEvent {
  readonly event: string
  readonly status?: { readonly state: string; readonly profileId: string | null }
}

/** A stream for `profile` read to its end; `onFirstData` runs once its first token arrived. Returns its SSE text. */
async function stream(port: number, profile: string, tokens: number, onFirstData: () => void, signal?: AbortSignal): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
    signal,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
    body: JSON.stringify({
      model: profile,
      stream: true,
      max_tokens: tokens,
      ignore_eos: true,
      messages: [{ role: 'user', content: 'Hi' }],
    }),
  })
  expect(res.status).toBe(200)
  let text = ''
  let first = true
  for await (const chunk of res.body as ReadableStream<Uint8Array>) {
    text += Buffer.from(chunk).toString('utf8')
    if (first && text.includes('"content"')) {
      first = false
      onFirstData()
    }
  }
  return text
}

const predictedN = (sse: string): number | undefined => Number(/"predicted_n":(\d+)/.exec(sse)?.[1] ?? Number.NaN) || undefined

describe('llama-tray profiles use (the built CLI, a running serve, the real llama-server)', () => {
  let home: string

  beforeAll(async () => {
    const bin = llamaServerBin()
    home = mkdtempSync(join(tmpdir(), 'llama-tray-use-'))
    const store = await ProfileStore.open(home)
    const common = ['-c', '4096', '-np', '2', '-t', '1', '--seed', '1']
    await store.upsert(importArgv([bin, '-m', model('tiny-target.gguf'), ...common], { name: 'alpha' }))
    await store.upsert(importArgv([bin, '-m', model('tiny-draft.gguf'), ...common], { name: 'beta' }))
    writeFileSync(join(home, 'key.txt'), `${KEY}\n`)
    // No residency wait, and a drain limit no stream here reaches even on a busy machine: the stream must end whole.
    for (const [key, value] of [
      ['switchMinResidencyS', '0'],
      ['switchDrainS', '3600'],
    ]) {
      const set = await runCli(['--home', home, 'settings', 'set', key as string, value as string])
      expect(set.code, set.stderr).toBe(0)
    }
  }, 900_000)
  afterAll(() => rmSync(home, { recursive: true, force: true }))

  it('with nothing running, only marks the profile active and says so', async () => {
    const result = await runCli(['--home', home, 'profiles', 'use', 'beta'])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toBe(
      'Profile "beta" is now the active profile; neither llama-tray serve nor the app runs, so it starts with the next start.\n',
    )
    expect((await ProfileStore.open(home)).file.activeProfileId).toBe('beta')
  }, 60_000)

  it('switches the running serve through its scheduler: says when, waits for the running stream, then the switch', async () => {
    const port = await findFreePort()
    const serve = startCli(['--home', home, 'serve', 'alpha', '--port', String(port), '--api-key-file', join(home, 'key.txt'), '--json'])
    try {
      const events = (): ServeEvent[] => serve.stdoutLines.map((l) => JSON.parse(l) as ServeEvent)
      const ready = (profile: string): boolean =>
        events().some((e) => e.event === 'state' && e.status?.state === 'ready' && e.status.profileId === profile)
      await waitUntil(() => ready('alpha'), 120_000, 'alpha to be ready')

      // The control path is checked like every request: without the key it is refused.
      const anonymous = await fetch(`http://127.0.0.1:${port}${SWITCH_CONTROL_PATH}`, { method: 'POST', body: '{"profile":"beta"}' })
      expect(anonymous.status).toBe(401)

      let use: ReturnType<typeof startCli> | null = null
      const sse = await stream(port, 'alpha', 1500, () => {
        use = startCli(['--home', home, 'profiles', 'use', 'beta'])
      })
      const started = use as ReturnType<typeof startCli> | null
      if (started === null) throw new Error('the stream sent no token')
      const result = await started.done
      expect(result.code, result.stderr).toBe(0)
      const [said, done] = result.stdout.trimEnd().split('\n')
      // The estimate when llama-server told the tokens left and a rate, the drain bound otherwise.
      const when = /(, about \d+ s| \(at most \d+ s(, the drain limit)?\))/.source
      expect(said).toMatch(new RegExp(`^Profile "beta" replaces "alpha" after 1 running request${when}; "Switch now" cuts them\\.$`))
      expect(done).toBe('Profile "beta" is ready and active.')
      // The running stream finished whole before the switch.
      expect(sse.trimEnd().endsWith('data: [DONE]')).toBe(true)
      expect(predictedN(sse)).toBe(1500)
      await waitUntil(() => ready('beta'), 30_000, "the serve's ready line for beta") // its stdout may come a moment after
      expect((await ProfileStore.open(home)).file.activeProfileId).toBe('beta')

      // --no-wait returns once the serve has taken the switch; the serve then makes it.
      const quick = await runCli(['--home', home, 'profiles', 'use', 'alpha', '--no-wait', '--json'])
      expect(quick.code, quick.stderr).toBe(0)
      expect(JSON.parse(quick.stdout.trim())).toMatchObject({ event: 'accepted', status: { profileId: expect.any(String) } })
      await waitUntil(
        () =>
          events()
            .filter((e) => e.status?.state === 'ready')
            .at(-1)?.status?.profileId === 'alpha',
        120_000,
        'alpha',
      )
    } finally {
      serve.child.kill('SIGINT')
      const ended = await serve.done
      expect(ended.code, ended.stderr).toBe(0)
    }
    // A serve that ended leaves no record: the next use only marks the profile active.
    const after = await runCli(['--home', home, 'profiles', 'use', 'beta'])
    expect(after.stdout).toMatch(/^Profile "beta" is now the active profile; neither llama-tray serve nor the app runs/)
  }, 600_000)

  it("switches the app's endpoint too: the core as the app composes it writes the record profiles use finds", async () => {
    // main/index.ts: createStandardCore, then applyEndpointSetting (the settings "endpoint" and "port").
    const port = await findFreePort()
    const set = await runCli(['--home', home, 'settings', 'set', 'port', String(port)])
    expect(set.code, set.stderr).toBe(0)
    const core = await createStandardCore({ home, telemetry: null, supervisor: { readyTimeoutMs: 120_000 } })
    try {
      const listened = await core.applyEndpointSetting()
      expect(listened?.ok).toBe(true)
      const started = await core.handlers['server:start']('alpha')
      expect(started.ok).toBe(true)
      const use = await runCli(['--home', home, 'profiles', 'use', 'beta'])
      expect(use.code, use.stderr).toBe(0)
      expect(use.stdout.trimEnd().split('\n').at(-1)).toBe('Profile "beta" is ready and active.')
      expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'beta' })
    } finally {
      await core.dispose()
    }
    // The app's endpoint closed with its record.
    const after = await runCli(['--home', home, 'profiles', 'use', 'alpha'])
    expect(after.stdout).toMatch(/^Profile "alpha" is now the active profile; neither llama-tray serve nor the app runs/)
  }, 600_000)

  it('says so and exits 1 when the app withdraws the waiting switch ("Keep" the running profile)', async () => {
    const port = await findFreePort()
    const set = await runCli(['--home', home, 'settings', 'set', 'port', String(port)])
    expect(set.code, set.stderr).toBe(0)
    const core = await createStandardCore({ home, telemetry: null, supervisor: { readyTimeoutMs: 120_000 } })
    const cut = new AbortController()
    try {
      expect((await core.applyEndpointSetting())?.ok).toBe(true)
      const started = await core.handlers['server:start']('alpha')
      expect(started.ok).toBe(true)
      const alphaPid = core.server.getStatus().pid
      let firstToken!: () => void
      const streaming = new Promise<void>((resolve) => (firstToken = resolve))
      // A stream the switch waits for; cut by the test once the switch is withdrawn (its length does not matter).
      const sse = stream(port, 'alpha', 30_000, firstToken, cut.signal).catch(() => '')
      await streaming
      const use = startCli(['--home', home, 'profiles', 'use', 'beta'])
      await waitUntil(() => core.snapshot().pendingSwitch?.profileId === 'beta', 60_000, 'the switch to beta to wait')
      // The app's "Keep alpha": a choice of the running profile.
      expect(await core.handlers['server:start']('alpha')).toMatchObject({ ok: true })
      const result = await use.done
      expect(result.code).toBe(1)
      expect(result.stderr).toBe('llama-tray: The switch to profile "beta" was withdrawn in Llama Tray: "alpha" keeps running.\n')
      expect(core.server.getStatus()).toMatchObject({ state: 'ready', profileId: 'alpha', pid: alphaPid })
      cut.abort()
      await sse
    } finally {
      cut.abort()
      await core.dispose()
    }
  }, 600_000)
})
