import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ProcessEntry } from '../platform/win32/toolhelp-parsing'
import { reapOrphans } from './orphans'
import { PidFiles } from './pid-file'
import type { WindowsIdentitySource } from '../platform/win32/process-identity'
import { readProcessIdentity, sameProcess } from './process-identity'
import type { WindowsStopDeps } from '../platform/win32/stop-tree'

// Orphan identity on Windows, run on Linux with the Toolhelp/GetProcessTimes
// binding replaced by a table: a pid the OS has handed to another process
// (another creation time) must never be killed.

function windowsTable(rows: { pid: number; exe: string; created: bigint | null }[]): WindowsIdentitySource {
  return {
    entries: (): ProcessEntry[] => rows.map((r) => ({ pid: r.pid, parentPid: 4, exeFile: r.exe })),
    creationTime: (pid: number) => rows.find((r) => r.pid === pid)?.created ?? null,
  }
}

const homes: string[] = []
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true })
})

describe('process identity on Windows', () => {
  it('is the Toolhelp image name and the GetProcessTimes creation time', async () => {
    const table = windowsTable([{ pid: 7700, exe: 'llama-server.exe', created: 133_780_000_001_234_567n }])
    expect(await readProcessIdentity(7700, 'win32', table)).toEqual({ name: 'llama-server', startToken: 'filetime:133780000001234567' })
    expect(await readProcessIdentity(7701, 'win32', table)).toBeNull()
  })

  it('tells a reused pid from the recorded process by its creation time', async () => {
    const recorded =
      (await readProcessIdentity(7700, 'win32', windowsTable([{ pid: 7700, exe: 'llama-server.exe', created: 1000n }]))) ?? undefined
    const reused = await readProcessIdentity(7700, 'win32', windowsTable([{ pid: 7700, exe: 'llama-server.exe', created: 2000n }]))
    const same = await readProcessIdentity(7700, 'win32', windowsTable([{ pid: 7700, exe: 'LLAMA-SERVER.EXE', created: 1000n }]))
    expect(recorded && reused && sameProcess(recorded, reused)).toBe(false)
    expect(recorded && same && sameProcess(recorded, same)).toBe(true)
  })

  it('does not take an unreadable creation time for a match when one was recorded', () => {
    expect(sameProcess({ name: 'llama-server', startToken: 'filetime:1' }, { name: 'llama-server', startToken: null })).toBe(false)
    // A record written without a token (an older version) still matches by name.
    expect(sameProcess({ name: 'llama-server', startToken: null }, { name: 'llama-server', startToken: 'filetime:1' })).toBe(true)
  })
})

describe('orphan reaping on Windows', () => {
  /** A pid file as a killed supervisor (owner pid 999999, not running) leaves it. */
  async function leftBehind(pid: number, created: bigint): Promise<{ home: string; files: PidFiles }> {
    const home = mkdtempSync(join(tmpdir(), 'llama-tray-win-orphan-'))
    homes.push(home)
    const writer = new PidFiles(home)
    const identity = await readProcessIdentity(pid, 'win32', windowsTable([{ pid, exe: 'llama-server.exe', created }]))
    await writer.write({ pid, ownerPid: 999_999, exe: 'C:\\llama\\llama-server.exe', port: 8080, identity, startedAt: 0 })
    return {
      home,
      files: new PidFiles(
        home,
        (p) => readProcessIdentity(p, 'win32', windowsTable([{ pid: p, exe: 'llama-server.exe', created: nowCreated }])),
        (p) => p !== 999_999,
      ),
    }
  }
  let nowCreated = 0n

  function failingTaskkill(terminated: number[]): WindowsStopDeps {
    return {
      env: {},
      processTable: () => [],
      terminate: (pid) => {
        terminated.push(pid)
        try {
          process.kill(pid, 'SIGKILL')
        } catch {
          return false
        }
        return true
      },
      spawn: (_file, _args, options) => spawn(process.execPath, ['-e', 'process.exit(1)'], { stdio: options.stdio }),
    }
  }

  it('never kills a process that got the recorded pid later, and drops the stale file', async () => {
    const bystander = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    try {
      const pid = bystander.pid as number
      const { home, files } = await leftBehind(pid, 1000n)
      nowCreated = 2000n // the OS reused the pid
      const terminated: number[] = []
      const reaped = await reapOrphans(files, { platform: 'win32', windows: failingTaskkill(terminated), isAlive: () => true })
      expect(reaped).toEqual([])
      expect(terminated).toEqual([])
      expect(bystander.exitCode).toBeNull()
      expect(readdirSync(join(home))).toEqual([])
    } finally {
      bystander.kill('SIGKILL')
    }
  })

  it('terminates the recorded server when the creation time matches, and says how', async () => {
    const orphan = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    const exited = new Promise((r) => orphan.once('exit', r))
    const pid = orphan.pid as number
    const { home, files } = await leftBehind(pid, 1000n)
    nowCreated = 1000n
    const terminated: number[] = []
    const reaped = await reapOrphans(files, {
      platform: 'win32',
      windows: failingTaskkill(terminated),
      isAlive: () => orphan.exitCode === null && orphan.signalCode === null,
    })
    await exited
    expect(reaped.map((r) => r.record.pid)).toEqual([pid])
    expect(reaped[0]?.detail).toMatch(/^terminated with TerminateProcess \(taskkill exited with 1\)$/)
    expect(terminated).toEqual([pid])
    expect(existsSync(join(home, 'llama-server.999999.json'))).toBe(false)
  })

  it('writes the pid file atomically, leaving no temp file behind', async () => {
    const home = mkdtempSync(join(tmpdir(), 'llama-tray-win-pidfile-'))
    homes.push(home)
    await new PidFiles(home).write({
      pid: 1,
      ownerPid: 5,
      exe: 'x',
      port: null,
      identity: { name: 'x', startToken: 'filetime:9' },
      startedAt: 0,
    })
    expect(readdirSync(home)).toEqual(['llama-server.5.json'])
    expect(JSON.parse(readFileSync(join(home, 'llama-server.5.json'), 'utf8')).identity.startToken).toBe('filetime:9')
  })
})
