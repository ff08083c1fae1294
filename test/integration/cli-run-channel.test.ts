import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../../app/lib/command-line'
import { startCli } from '../helpers/cli'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { isRunning, waitUntil } from '../helpers/processes'
import { snapshotSchema } from '../helpers/snapshot-schema'
import { PROGRESS_MODEL_ARGS, writeProgressModel } from '../helpers/synthetic/progress-model'

// `llama-tray run` (the built CLI) with the real llama-server's child channel: the server's own load
// progress in the --json snapshots, and no server left behind when the CLI is killed outright.
let bin: string
let progressModel: string
const home = mkdtempSync(join(tmpdir(), 'llama-tray-cli-channel-'))

beforeAll(async () => {
  bin = llamaServerBin()
  progressModel = await writeProgressModel()
}, 900_000)

afterAll(() => {
  rmSync(home, { recursive: true, force: true })
  rmSync(dirname(progressModel), { recursive: true, force: true })
})

describe('llama-tray run with the child channel', () => {
  it("--json shows the server's own load progress; SIGKILL of the CLI takes the ready server with it", async () => {
    const cmd = formatCommandLine([bin, '-m', progressModel, ...PROGRESS_MODEL_ARGS])
    const cli = startCli(['--home', home, 'run', '--cmd', cmd, '--json', '--interval', '100'])
    await waitUntil(() => cli.stdoutLines.some((l) => l.includes('"state":"ready"')), 240_000, 'ready')
    const snapshots = cli.stdoutLines.map((l) => snapshotSchema.parse(JSON.parse(l)))
    const values = snapshots.flatMap((s) => (s.server.state === 'loading' && s.server.progress ? [s.server.progress.value] : []))
    expect(new Set(values).size, `values: ${values.join(', ')}`).toBeGreaterThanOrEqual(2)
    expect(values).toEqual([...values].sort((a, b) => (a ?? 0) - (b ?? 0)))
    const pid = snapshots.find((s) => s.server.state === 'ready')?.server.pid as number
    expect(isRunning(pid)).toBe(true)

    cli.child.kill('SIGKILL') // no stop, no pid-file clean-up: only the closed stdin tells the server
    await cli.done
    // A sanity bound (the exit takes about 0.2 s on an idle machine), not a speed goal.
    await waitUntil(() => !isRunning(pid), 30_000, `llama-server ${pid} to exit after its supervisor died`)
  }, 300_000)
})
