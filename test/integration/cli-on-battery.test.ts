import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, startCli } from '../helpers/cli'
import { llamaServerBin } from '../helpers/llama-server-bin'
import { model } from '../helpers/paths'
import { waitUntil } from '../helpers/processes'
import { FakeSysfs } from '../support/platform/fake-sysfs'

// Issue #37: unplugging changed nothing. Here a laptop's charger and battery are faked through LLAMA_TRAY_SYSFS; with
// `settings set on-battery small`, `run big` switches to small when the charger goes offline and back to big when it
// comes back, the snapshot carries the source and the charge, and each change is said once on stderr.

let home = ''
const sysfs = new FakeSysfs()

interface Line {
  readonly server: { readonly state: string; readonly profileId: string | null }
  readonly power?: { readonly source: string; readonly batteryPercent: number | null; readonly charging: boolean | null } | null
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'llama-tray-on-battery-'))
  const bin = llamaServerBin()
  const common = ['-c', '1024', '-np', '1', '-t', '1']
  for (const [name, gguf] of [
    ['big', 'tiny-target.gguf'],
    ['small', 'tiny-draft.gguf'],
  ] as const) {
    const imported = await runCli(['--home', home, 'profiles', 'import', '--name', name, '--', bin, '-m', model(gguf), ...common])
    expect(imported.code, imported.stderr).toBe(0)
  }
  const set = await runCli(['--home', home, 'settings', 'set', 'on-battery', 'small'])
  expect(set.code, set.stderr).toBe(0)
  sysfs.supplies(true, 80, 'Charging')
}, 900_000)
afterAll(() => {
  rmSync(home, { recursive: true, force: true })
  sysfs.remove()
})

describe('run on a laptop that is unplugged and plugged in again (fake /sys)', () => {
  it('switches to the onBattery profile on battery and back to the one before on AC', async () => {
    const run = startCli(['--home', home, 'run', 'big', '--json'], { LLAMA_TRAY_SYSFS: sysfs.root })
    const lines = (): Line[] => run.stdoutLines.map((l) => JSON.parse(l) as Line)
    const last = (): Line | undefined => lines().at(-1)
    const serving = (id: string) => (): boolean => last()?.server.state === 'ready' && last()?.server.profileId === id
    try {
      await waitUntil(serving('big'), 120_000, 'big ready')
      expect(last()?.power).toEqual({ source: 'ac', batteryPercent: 80, charging: true, saver: null })

      sysfs.supplies(false, 79, 'Discharging')
      await waitUntil(serving('small'), 120_000, 'small ready on battery')
      expect(last()?.power).toEqual({ source: 'battery', batteryPercent: 79, charging: false, saver: null })
      expect(run.stderrLines).toContain('llama-tray: On battery: switched from big to small; big returns on AC.')

      sysfs.supplies(true, 79, 'Charging')
      await waitUntil(serving('big'), 120_000, 'big back on AC')
      expect(last()?.power?.source).toBe('ac')
      expect(run.stderrLines.filter((l) => l.includes('On AC again: big is back.'))).toHaveLength(1)
      expect(run.stderrLines.filter((l) => l.includes('On battery:'))).toHaveLength(1)
    } finally {
      run.child.kill('SIGINT')
    }
    expect((await run.done).code).toBe(0)
  }, 300_000)
})
