import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../../app/lib/command-line'
import { runCli } from '../helpers/cli'
import { FAKE_SERVER, model, REPO_ROOT } from '../helpers/paths'

// Issue #42 (Low): run --json's problem details carried an unredacted `Authorization: Bearer …` log line.
// The built CLI and a stand-in server that replays a recorded out-of-memory load with such a line among its last.
const scratch = mkdtempSync(join(tmpdir(), 'llama-tray-run-redacted-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
const SECRET = 'live-secret-key-0123456789'

describe('run --json and --verbose show failure details without secrets', () => {
  it('the last log lines are kept, the Bearer key in them is not', async () => {
    const recorded = join(REPO_ROOT, 'test', 'fixtures', 'llama-server-cuda-h200', 'err_cuda_oom_at_load_h200.log')
    const log = join(scratch, 'oom.log')
    const lines = readFileSync(recorded, 'utf8').trimEnd().split('\n')
    lines.splice(-3, 0, `srv  log_server_r: request: GET /v1/models Authorization: Bearer ${SECRET}`)
    writeFileSync(log, `${lines.join('\n')}\n`)
    const cmd = formatCommandLine([FAKE_SERVER, '-m', model('tiny-target.gguf'), '--fake-mode', 'oom-at-load', '--fake-log', log])
    const home = join(scratch, 'home')
    const r = await runCli(['--home', home, '--verbose', 'run', '--json', '--cmd', cmd, '--duration', '60'])
    expect(r.code, r.stderr).toBe(1)
    const last = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { server: { lastExit: { problem: { details: string } } } }
    expect(last.server.lastExit.problem.details).toContain('Authorization: Bearer ***')
    expect(r.stdout).not.toContain(SECRET)
    expect(r.stderr).not.toContain(SECRET)
  }, 120_000)
})
