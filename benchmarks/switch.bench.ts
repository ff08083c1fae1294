import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { importArgv } from '../app/profiles/import-command'
import { ProfileStore } from '../app/profiles/store'
import { switchProfile } from '../app/profiles/switch-profile'
import { ServerSupervisor } from '../app/supervisor/supervisor'
import { median, type BenchRow } from './bench-row'
import { onCleanup } from './cleanup'

/**
 * A profile switch on the real server (tiny target ⇄ tiny target + draft):
 * what our code adds (reading and checking the profile, recording the active
 * one) next to the server's own stop and load time, measured in the same switches.
 */
export async function benchSwitch(bin: string, modelsDir: string, switches = 8): Promise<BenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), 'llama-tray-bench-switch-'))
  const supervisor = new ServerSupervisor({ home, healthIntervalMs: 20 })
  const forget = onCleanup(() => supervisor.dispose())
  const ours: number[] = []
  const server: number[] = []
  try {
    const store = await ProfileStore.open(home)
    const base = [bin, '-m', join(modelsDir, 'tiny-target.gguf'), '-c', '4096', '-np', '1']
    const plain = importArgv(base, { name: 'plain' })
    const draft = importArgv([...base, '-md', join(modelsDir, 'tiny-draft.gguf'), '--spec-type', 'draft-simple'], {
      name: 'draft',
      takenIds: [plain.id],
    })
    await store.upsert(plain)
    await store.upsert(draft)
    await switchProfile(supervisor, home, plain.id) // warm: engine detection is cached after the first switch
    for (let i = 0; i < switches; i++) {
      const r = await switchProfile(supervisor, home, i % 2 === 0 ? draft.id : plain.id)
      if (!r.ok || !r.timings) throw new Error(`bench: switch failed: ${r.ok ? '' : r.reason}`)
      ours.push(r.timings.resolveMs + r.timings.gpuWaitMs + r.timings.recordMs)
      server.push(r.timings.stopMs + r.timings.startMs)
    }
  } finally {
    forget()
    await supervisor.dispose()
    rmSync(home, { recursive: true, force: true })
  }
  const group = 'switch'
  return [
    {
      group,
      name: `our part of a profile switch (resolve + check + record), median of ${switches} (goal < 150)`,
      value: median(ours),
      unit: 'ms',
      baseline: median(server),
      baselineName: "server's own stop + load in the same switches",
    },
    { group, name: 'our part, worst', value: Math.max(...ours), unit: 'ms' },
  ]
}
