import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatCommandLine } from '../../app/lib/command-line'
import { startCli } from '../helpers/cli'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { waitUntil } from '../helpers/processes'
import { fakeGpuEnv } from '../support/bench/fake-gpu'

// Issue #40: "close <program>, which holds N MiB" where the platform names GPU processes. The built CLI runs the real
// llama-server on a fake laptop GPU (8 GB, the fake nvidia-smi; no NVML here, so --query-compute-apps names the
// processes); a game takes 7,000 MiB and the low-VRAM warning names it, leaving our own llama-server out.
let bin: string
const home = mkdtempSync(join(tmpdir(), 'llama-tray-vram-holder-'))
const otherMiB = join(home, 'other-programs-mib')

beforeAll(() => {
  bin = llamaServerBin()
}, 900_000)
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('the low-VRAM warning names the program that took the memory (built CLI, real llama-server, fake nvidia-smi)', () => {
  it('says which program to close, in one line of at most 160 characters', async () => {
    writeFileSync(otherMiB, '0')
    const gpu = { totalMiB: 8192, idleMiB: 300, serverMiB: 600, perGpuExpertLayerMiB: 0, layers: 40, draftMiB: 0 }
    const cmd = formatCommandLine([bin, '-m', model('tiny-target.gguf'), '-c', '4096', '-np', '1', '-t', '1'])
    const cli = startCli(['--home', home, 'run', '--cmd', cmd], {
      ...fakeGpuEnv(gpu),
      FAKE_GPU_OTHER_MIB_FILE: otherMiB,
      FAKE_GPU_OTHER_NAME: 'C:\\Games\\Cyberpunk 2077\\bin\\x64\\Cyberpunk2077.exe',
    })
    try {
      await waitUntil(() => cli.stderrLines.some((l) => l.includes('OpenAI-compatible API is at')), 120_000, 'ready')
      const linesBefore = cli.stdoutLines.length
      writeFileSync(otherMiB, '7000') // a game starts: 292 MiB left free
      const warning = (): string | undefined => cli.stdoutLines.slice(linesBefore).find((l) => l.includes('Free VRAM on GPU 0'))
      await waitUntil(() => warning() !== undefined, 60_000, 'the low-VRAM warning')
      expect(warning()).toContain('Free VRAM on GPU 0 is 292 MiB: Cyberpunk2077.exe holds 7,000 MiB. Close it.')
      expect(warning()).not.toContain('llama-server')
      expect(warning()?.length).toBeLessThanOrEqual(160)
    } finally {
      cli.child.kill('SIGINT')
      await cli.done
    }
  }, 240_000)
})
