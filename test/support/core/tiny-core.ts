import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { LlamaTrayCore } from '../../../app/core/llama-tray-core'
import { importArgv } from '../../../app/profiles/import-command'
import { ProfileStore } from '../../../app/profiles/store'
import type { TelemetryService } from '../../../app/telemetry/telemetry-service'
import { MODELS } from '../../helpers/paths'
import { switchAtOnce } from './switch-at-once'

export const modelsDir = MODELS
export const tinyTarget = path.join(modelsDir, 'tiny-target.gguf')
export const tinyDraft = path.join(modelsDir, 'tiny-draft.gguf')

/** Small memory, one slot, one thread (a shared 2-core box: a second thread mostly spins): how every test server runs. */
export const SMALL = ['-c', '4096', '-np', '1', '-t', '1']

/** Stores a profile made of this llama-server argument vector; returns its id. */
export async function addProfile(home: string, name: string, argv: readonly string[]): Promise<string> {
  const store = await ProfileStore.open(home)
  const profile = importArgv(argv, { name, takenIds: store.file.profiles.map((p) => p.id) })
  await store.upsert(profile)
  return profile.id
}

export interface TestCore {
  readonly core: LlamaTrayCore
  readonly home: string
  /** Every llama-server pid the supervisor reported. */
  readonly pids: Set<number>
  dispose(): Promise<void>
}

export async function makeCore(telemetry: TelemetryService | null = null): Promise<TestCore> {
  const home = mkdtempSync(path.join(tmpdir(), 'llama-tray-bench-'))
  const core = await LlamaTrayCore.create({ home, telemetry, supervisor: { healthIntervalMs: 50 } })
  await switchAtOnce(core)
  const pids = new Set<number>()
  core.on('server:state-changed', (s) => {
    if (s.pid) pids.add(s.pid)
  })
  return {
    core,
    home,
    pids,
    dispose: async () => {
      await core.dispose()
      rmSync(home, { recursive: true, force: true })
    },
  }
}

/** Live children of this process whose program is llama-server (Linux /proc). */
export function llamaServerChildren(): number[] {
  const out: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[1]) !== process.pid || fields[0] === 'Z') continue
      const argv0 = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0')[0] ?? ''
      if (path.basename(argv0).startsWith('llama-server')) out.push(Number(name))
    } catch {
      // gone meanwhile
    }
  }
  return out
}
