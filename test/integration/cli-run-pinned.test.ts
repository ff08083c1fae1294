import { mkdtempSync, rmSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findFreePort } from '../../app/supervisor/free-port'
import { runCli, startCli } from '../helpers/cli'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { isRunning, waitUntil } from '../helpers/processes'
import { snapshotSchema } from '../helpers/snapshot-schema'

// `llama-tray run <profile>` with a pinned profile: its server starts beside the one run starts, the CLI names it, and both
// stop with the CLI. The built CLI, the real llama-server on the tiny models, no GPU (the pin has no fit to refuse against).
let home: string
const cli = (args: string[]) => runCli(['--home', home, ...args])

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'llama-tray-run-pinned-'))
  const bin = llamaServerBin()
  const common = ['-c', '1024', '-np', '1', '-t', '1']
  for (const [name, argv] of [
    ['alpha', [bin, '-m', model('tiny-target.gguf'), ...common]],
    ['embed', [bin, '-m', model('tiny-draft.gguf'), '--embeddings', '--pooling', 'mean', ...common]],
  ] as const) {
    const imported = await cli(['profiles', 'import', '--name', name, '--', ...argv])
    expect(imported.code, imported.stderr).toBe(0)
  }
  const pinned = await cli(['profiles', 'pin', 'embed'])
  expect(pinned.code, pinned.stderr).toBe(0)
}, 900_000)
afterAll(() => rmSync(home, { recursive: true, force: true }))

/** The pid of a pinned server on `port`, from its pid file (<home>/run/llama-server.<owner pid>.<profile id>.json). */
async function pinnedPid(profileId: string, port: number): Promise<number> {
  const run = join(home, 'run')
  for (const name of await readdir(run)) {
    if (!name.endsWith(`.${profileId}.json`)) continue
    const record = JSON.parse(await readFile(join(run, name), 'utf8')) as { pid: number; port: number | null }
    if (record.port === port) return record.pid
  }
  throw new Error(`no pid file of ${profileId} on port ${port} in ${run}`)
}

describe('llama-tray run with a pinned profile', () => {
  it('starts the pinned server beside the profile it runs, prints where it listens, and stops both', async () => {
    const run = startCli(['--home', home, 'run', 'alpha', '--interval', '200'])
    let stderr = ''
    run.child.stderr?.on('data', (c: string) => (stderr += c))
    await waitUntil(
      () => /Profile "embed" \(pinned\) is ready at http:\/\/127\.0\.0\.1:\d+/.test(stderr),
      120_000,
      'the pinned server to be ready',
    )
    await waitUntil(() => run.stdoutLines.some((l) => l.startsWith('READY')), 120_000, 'the active server to be ready')
    const port = Number(/Profile "embed" \(pinned\) is ready at http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr)?.[1])
    const health = await fetch(`http://127.0.0.1:${port}/health`)
    expect(health.status).toBe(200)
    run.child.kill('SIGINT')
    expect((await run.done).code).toBe(0)
    await expect(fetch(`http://127.0.0.1:${port}/health`)).rejects.toThrow()
  }, 300_000)

  it('--json snapshots carry the pinned server with its pid, port and restarts', async () => {
    const run = startCli(['--home', home, 'run', 'alpha', '--json', '--interval', '200'])
    const readyBoth = (l: string): boolean => l.includes('"state":"ready"') && /"pinned":\[\{[^\]]*"state":"ready"/.test(l)
    await waitUntil(() => run.stdoutLines.some(readyBoth), 120_000, 'a snapshot with both servers ready')
    const snapshot = snapshotSchema.parse(JSON.parse(run.stdoutLines.find(readyBoth) as string))
    const pinned = snapshot.pinned?.[0]
    expect(pinned).toMatchObject({ profileId: 'embed', state: 'ready', restarts: 0 })
    expect(pinned?.pid).not.toBe(snapshot.server.pid)
    run.child.kill('SIGTERM')
    expect((await run.done).code).toBe(0)
    for (const pid of [pinned?.pid, snapshot.server.pid]) expect(isRunning(pid as number)).toBe(false)
  }, 300_000)

  it('serve prints a line when the pinned server is ready, and again, with its restart, after it is killed', async () => {
    const serve = startCli(['--home', home, 'serve', 'alpha', '--port', String(await findFreePort())])
    let stderr = ''
    serve.child.stderr?.on('data', (c: string) => (stderr += c))
    const ready = /llama-tray: Profile "embed" \(pinned\) is ready at http:\/\/127\.0\.0\.1:(\d+)\.\n/
    await waitUntil(() => ready.test(stderr), 120_000, 'the pinned server to be ready')
    const pid = await pinnedPid('embed', Number(ready.exec(stderr)?.[1]))
    process.kill(pid, 'SIGKILL')
    await waitUntil(
      () => /Profile "embed" \(pinned\) is ready at http:\/\/127\.0\.0\.1:\d+\. 1 restart\.\n/.test(stderr),
      120_000,
      'the restart line',
    )
    serve.child.kill('SIGINT')
    expect((await serve.done).code).toBe(0)
  }, 300_000)

  it('refuses to run a pinned profile on its own, saying why and what to do', async () => {
    const refused = await cli(['run', 'embed', '--duration', '1'])
    expect(refused.code).toBe(2)
    expect(refused.stderr.trim()).toBe(
      'llama-tray: Profile "embed" is pinned, so it runs beside the active profile while Llama Tray serves; run another profile ' +
        '(the pinned ones start beside it), or unpin it first: llama-tray profiles unpin embed.',
    )
  })
})
