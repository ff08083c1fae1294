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

// The built CLI runs the real llama-server on a fake laptop GPU (8 GB, the fake nvidia-smi; no NVML here, so
// --query-compute-apps names the processes). A game takes 7,000 MiB while nobody watches `run` (its output is a
// pipe), and:
// - issue #41: the core keeps its idle pace and nvidia-smi its idle stream, yet the warning still comes soon;
// - issue #40: the warning names the program that took the memory, leaving our own llama-server out.
let bin: string
const home = mkdtempSync(join(tmpdir(), 'llama-tray-low-vram-'))
const otherMiB = join(home, 'other-programs-mib')

beforeAll(() => {
  bin = llamaServerBin()
}, 900_000)
afterAll(() => rmSync(home, { recursive: true, force: true }))

describe('the low-VRAM warning while nobody watches (built CLI, real llama-server, fake nvidia-smi)', () => {
  it('comes soon after a game takes the VRAM and says which program to close, in one line of at most 160 characters', async () => {
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
      writeFileSync(otherMiB, '7000') // a game starts: 292 MiB left free, under the 1,536 MiB headroom
      const lowAt = performance.now()
      const warning = (): string | undefined => cli.stdoutLines.slice(linesBefore).find((l) => l.includes('Free VRAM on GPU 0'))
      await waitUntil(() => warning() !== undefined, 90_000, 'the low-VRAM warning')
      const seconds = (performance.now() - lowAt) / 1000
      console.log(`low-VRAM warning ${seconds.toFixed(1)} s after the VRAM ran low (unwatched, nvidia-smi's idle stream)`)
      expect(warning()).toContain('Free VRAM on GPU 0 is 292 MiB: Cyberpunk2077.exe holds 7,000 MiB. Close it.')
      expect(warning()).not.toContain('llama-server')
      expect(warning()?.length).toBeLessThanOrEqual(160)
      // By design 1-8 s (nvidia-smi's lines 5 s apart while unwatched bring the first low sample; the two more the
      // warning needs come at the usual pace: tick-pace.ts), logged above; 10-15 s if the hurry was refused (once a
      // minute). The bound only tells those paces from a GPU nobody reads, with room for a loaded machine.
      expect(seconds).toBeLessThan(45)
    } finally {
      cli.child.kill('SIGINT')
      await cli.done
    }
  }, 300_000)
})
