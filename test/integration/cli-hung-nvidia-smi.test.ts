import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openNvml } from '../../app/telemetry/gpu/nvml'
import { fakeSmiDir } from '../support/telemetry/paths'
import { formatCommandLine } from '../../app/lib/command-line'
import { runCli } from '../helpers/cli'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { isRunning, waitUntil } from '../helpers/processes'

// Issue #26 item 9: an nvidia-smi hung in the driver, whose grandchild keeps its stdout open, hung
// `llama-tray gpu --json` (> 150 s) and kept `run --duration` from exiting. The fake hangs for 10
// minutes here, so a CLI that waits for the pipe to close cannot pass; pids come from FAKE_SMI_PID_DIR.

const home = mkdtempSync(join(tmpdir(), 'llama-tray-hung-smi-'))
let pidDir = ''
let bin: string
/** Where NVML loads (a machine with an NVIDIA driver), `run` reads the GPU through it and never asks nvidia-smi. */
let nvmlLoads = false

function hungSmiEnv(): NodeJS.ProcessEnv {
  const PATH = `${fakeSmiDir}${delimiter}${process.env.PATH ?? ''}`
  return { PATH, FAKE_SMI: 'hang,grandchild', FAKE_SMI_PID_DIR: pidDir, FAKE_SMI_HANG_MAX_MS: '600000' }
}

/** Every fake nvidia-smi and grandchild the command started: pid files named <pid> and grandchild-<pid>. */
function startedPids(): { smi: number[]; grandchildren: number[] } {
  const files = readdirSync(pidDir)
  return {
    smi: files.filter((f) => /^\d+$/.test(f)).map(Number),
    grandchildren: files.filter((f) => f.startsWith('grandchild-')).map((f) => Number(f.slice('grandchild-'.length))),
  }
}

beforeAll(() => {
  bin = llamaServerBin()
  const nvml = openNvml()
  nvmlLoads = nvml.ok
  if (nvml.ok) nvml.nvml.close()
}, 900_000)
afterEach(() => {
  // Never leave a 10-minute sleeper behind, whatever the verdict.
  for (const pid of [...startedPids().smi, ...startedPids().grandchildren]) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // gone, as it should be
    }
  }
  rmSync(pidDir, { recursive: true, force: true })
})
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('the built CLI with a hung nvidia-smi whose grandchild holds stdout', () => {
  it('gpu --json answers with the one-sentence reason, and leaves neither nvidia-smi nor its grandchild', async () => {
    pidDir = mkdtempSync(join(tmpdir(), 'fake-smi-pids-'))
    const result = await runCli(['--home', home, 'gpu', '--json', '--backend', 'nvidia-smi'], hungSmiEnv())
    expect(result.code).toBe(1)
    const line = JSON.parse(result.stdout.trim()) as { inventory: { error: string }; gpu: { available: boolean; reason: string } }
    expect(line.inventory).toEqual({ error: 'nvidia-smi did not answer within 10 s; the driver may be stuck.' })
    const reason = 'No NVIDIA GPU data: nvidia-smi did not answer within 5 s; the driver may be stuck.'
    expect(line.gpu).toMatchObject({ available: false, reason })
    const { smi, grandchildren } = startedPids()
    // The inventory's -q -x and the field probe each start one (a very slow start may be killed before it writes its pid).
    expect(smi.length).toBeGreaterThanOrEqual(1)
    expect(grandchildren.length).toBeGreaterThanOrEqual(1)
    await waitUntil(() => [...smi, ...grandchildren].every((pid) => !isRunning(pid)), 20_000, 'every fake nvidia-smi and grandchild gone')
  })

  it('run --duration 2 exits and leaves no process behind', async () => {
    pidDir = mkdtempSync(join(tmpdir(), 'fake-smi-pids-'))
    const cmd = formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1', '-t', '1'])
    const result = await runCli(['--home', home, 'run', '--cmd', cmd, '--json', '--duration', '2'], hungSmiEnv())
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const snapshots = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { server: { pid: number | null } })
    const serverPid = snapshots.find((s) => s.server.pid)?.server.pid
    expect(serverPid).toBeGreaterThan(0)
    const { smi, grandchildren } = startedPids()
    // Without NVML the telemetry probes the hung nvidia-smi while the server runs.
    if (nvmlLoads) expect(grandchildren).toEqual([])
    else expect(grandchildren.length).toBeGreaterThanOrEqual(1)
    const started = [serverPid as number, ...smi, ...grandchildren]
    await waitUntil(() => started.every((pid) => !isRunning(pid)), 20_000, 'llama-server and every fake nvidia-smi gone')
  })
})
