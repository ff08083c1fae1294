import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../../app/lib/command-line'
import { startCli } from '../helpers/cli'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model, REPO_ROOT } from '../helpers/paths'
import { FakeSysfs } from '../support/platform/fake-sysfs'
import { fakeSmiDir } from '../support/telemetry/paths'

// Issue #37: with a laptop's NVIDIA GPU asleep (D3cold), `run` with a CPU-only server started nvidia-smi twice in
// 12 s, and each query wakes the GPU. Here /sys is faked through LLAMA_TRAY_SYSFS; one run reads the GPU through a
// fake NVML that logs every call, the other through the stand-in nvidia-smi that records each start. For 30 of the
// CLI's 1 s ticks (30 s) neither is touched; once the device reads D0, figures come back within a tick or two.

const GPU = '0000:01:00.0'
const ASLEEP_TICKS = 30
const work = mkdtempSync(join(tmpdir(), 'llama-tray-gpu-asleep-'))
let cmd = ''

interface Line {
  readonly gpu: { readonly available: boolean; readonly asleep?: boolean; readonly reason: string | null } | null
  readonly server: { readonly state: string }
}

beforeAll(() => {
  cmd = formatCommandLine([llamaServerBin(), '-m', model('tiny-target.gguf'), '-c', '2048', '-np', '1', '-t', '1'])
  mkdirSync(join(work, 'nvml'))
  const source = join(REPO_ROOT, 'app', 'telemetry', 'gpu', 'nvml-fake', 'fake-libnvidia-ml.c')
  execFileSync('gcc', ['-shared', '-fPIC', '-O2', '-o', join(work, 'nvml', 'libnvidia-ml.so.1'), source])
}, 900_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A `run --json` on a laptop whose GPU sleeps; `waitLines(n)` resolves with the first n snapshots. */
function runAsleep(name: string, env: NodeJS.ProcessEnv) {
  const sysfs = new FakeSysfs()
  sysfs.pciDevice(GPU, '0x10de', '0x030000', 'D3cold', 'suspended')
  const home = join(work, `home-${name}`)
  const cli = startCli(['--home', home, 'run', '--cmd', cmd, '--json'], { LLAMA_TRAY_SYSFS: sysfs.root, ...env })
  const lines = (): Line[] => cli.stdoutLines.map((l) => JSON.parse(l) as Line)
  const waitLines = (n: number, why: string): Promise<Line[]> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        if (cli.stdoutLines.length >= n) {
          cli.child.stdout?.off('data', check)
          resolve(lines().slice(0, n))
        }
      }
      cli.child.stdout?.on('data', check)
      cli.child.once('exit', () => reject(new Error(`the CLI exited before ${why}: ${cli.stderrLines.join(' ')}`)))
      check()
    })
  return { sysfs, cli, lines, waitLines }
}

describe('run on a laptop whose NVIDIA GPU is asleep (fake /sys)', () => {
  it('starts no nvidia-smi and makes no NVML call for 30 ticks, and reads the GPU again within a tick of D0', async () => {
    const calls = join(work, 'nvml-calls.log')
    const smiPids = join(work, 'smi-pids')
    mkdirSync(smiPids)
    const path = `${fakeSmiDir}${delimiter}${process.env.PATH ?? ''}`
    const nvml = runAsleep('nvml', { LD_LIBRARY_PATH: join(work, 'nvml'), FAKE_NVML_CALLS: calls, PATH: path })
    const smi = runAsleep('smi', { PATH: path, FAKE_SMI: '', FAKE_SMI_PID_DIR: smiPids })
    try {
      const [nvmlAsleep, smiAsleep] = await Promise.all([nvml.waitLines(ASLEEP_TICKS, '30 ticks'), smi.waitLines(ASLEEP_TICKS, '30 ticks')])
      for (const snapshots of [nvmlAsleep, smiAsleep]) {
        expect(snapshots.some((s) => s.server.state === 'ready')).toBe(true)
        // The first tick may come before the telemetry looked; from then on it says asleep.
        for (const s of snapshots.slice(1)) expect(s.gpu).toMatchObject({ available: false, asleep: true })
        expect(snapshots.at(-1)?.gpu?.reason).toMatch(/asleep \(D3cold, runtime suspended\)/)
      }
      expect(existsSync(calls) ? readFileSync(calls, 'utf8') : '').toBe('')
      expect(readdirSync(smiPids)).toEqual([])

      // The GPU wakes (another app took it): the next tick opens the reader, figures follow at the tick after.
      const woke = { nvml: nvml.lines().length, smi: smi.lines().length }
      nvml.sysfs.gpuPower(GPU, 'D0', 'active')
      smi.sysfs.gpuPower(GPU, 'D0', 'active')
      const awake = (l: Line[], from: number) => l.slice(from).findIndex((s) => s.gpu?.available === true)
      const nvmlBack = await nvml.waitLines(woke.nvml + 3, 'figures after D0')
      expect(awake(nvmlBack, woke.nvml)).toBeGreaterThanOrEqual(0)
      expect(awake(nvmlBack, woke.nvml)).toBeLessThanOrEqual(2)
      expect(readFileSync(calls, 'utf8')).toMatch(/nvmlInit_v2/)
      // nvidia-smi's reader probes its fields, then starts its stream: allow its start-up a few ticks.
      const smiBack = await smi.waitLines(woke.smi + 10, 'figures after D0')
      expect(awake(smiBack, woke.smi)).toBeGreaterThanOrEqual(0)
      expect(readdirSync(smiPids).length).toBeGreaterThan(0)
    } finally {
      for (const run of [nvml, smi]) {
        run.cli.child.kill('SIGINT')
        await run.cli.done
        run.sysfs.remove()
      }
    }
  }, 240_000)
})
