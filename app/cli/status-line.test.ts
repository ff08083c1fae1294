import { describe, expect, it } from 'vitest'
import type { ServerStatus } from '../contract/server-state'
import { formatStatusLine } from './status-line'

const base: ServerStatus = { state: 'ready', profileId: 'p', pid: 42, host: '127.0.0.1', port: 8080, exe: 'llama-server', readySince: 0, restartAt: null, lastExit: null, restarts: 0 }

describe('formatStatusLine', () => {
  it('shows state, pid, address and uptime', () => {
    expect(formatStatusLine(base, null, 65_000)).toBe('READY      pid 42  http://127.0.0.1:8080  up 1m05s')
  })
  it('shows the countdown and the reason while backing off', () => {
    const line = formatStatusLine({ ...base, state: 'backoff', pid: null, port: null, readySince: null, restartAt: 4000, restarts: 2, lastExit: { code: null, signal: 'SIGKILL', reason: 'llama-server was killed by SIGKILL', hint: null, kind: 'crashed', lastLines: [] } }, null, 1000)
    expect(line).toBe('BACKOFF    restart in 3s  restarts 2  : llama-server was killed by SIGKILL')
  })
  it('says what a sleeping server means: calm, with its address, no reason line', () => {
    const line = formatStatusLine({ ...base, state: 'sleeping', sleepIdleSeconds: 2 }, null, 65_000)
    expect(line).toBe('SLEEPING   pid 42  http://127.0.0.1:8080  up 1m05s  model unloaded after 2 s idle, VRAM freed; the next request wakes it')
  })
  it('prints the address a client on this machine connects to, not a wildcard bind', () => {
    expect(formatStatusLine({ ...base, host: '0.0.0.0' }, null, 0)).toContain('http://127.0.0.1:8080')
    expect(formatStatusLine({ ...base, host: '::' }, null, 0)).toContain('http://[::1]:8080')
    expect(formatStatusLine({ ...base, host: '0.0.0.0' }, null, 0)).not.toContain('0.0.0.0')
  })
})
