import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ServerStateKind, ServerStatus, ServerStatusOf } from '../../app/contract/server-state'
import { ServerSupervisor, type SupervisorOptions } from '../../app/supervisor/supervisor'
import { PidTracker } from './processes'

/** A supervisor in a temp home that records every state and pid it goes through. */
export class SupervisorHarness {
  readonly home = mkdtempSync(join(tmpdir(), 'llama-tray-test-'))
  readonly supervisor: ServerSupervisor
  readonly states: ServerStateKind[] = []
  readonly statuses: ServerStatus[] = []
  readonly pids = new PidTracker()

  constructor(options: Partial<SupervisorOptions> = {}) {
    this.supervisor = new ServerSupervisor({ home: this.home, healthIntervalMs: 20, ...options })
    this.supervisor.on('state', (s) => {
      this.statuses.push(s)
      if (this.states[this.states.length - 1] !== s.state) this.states.push(s.state)
      this.pids.add(s.pid)
    })
  }

  /** Resolves when the supervisor reaches `state` (or already is in it). */
  waitFor<K extends ServerStateKind>(state: K, timeoutMs = 120_000): Promise<ServerStatusOf<K>> {
    const isIn = (s: ServerStatus): s is ServerStatusOf<K> => s.state === state
    const now = this.supervisor.getStatus()
    if (isIn(now)) return Promise.resolve(now)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        off()
        reject(new Error(`timed out waiting for ${state}; states so far: ${this.states.join(' → ')}`))
      }, timeoutMs)
      const off = this.supervisor.on('state', (s) => {
        if (isIn(s)) {
          clearTimeout(timer)
          off()
          resolve(s)
        }
      })
    })
  }

  async dispose(): Promise<void> {
    await this.supervisor.stop()
    rmSync(this.home, { recursive: true, force: true })
  }
}
