import { spawn, type ChildProcess } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { spawnProcess, stopProcessTree, type SpawnedProcess } from '../../supervisor/process-tree'
import { isAlive } from '../../supervisor/process-identity'
import { descendantsOf } from './process-table'
import { taskkillPath } from '../../lib/process/taskkill'
import type { WindowsStopDeps } from './stop-tree'

// The Windows stop, run on Linux: real processes stand in for llama-server and
// its child, and a small Node script stands in for taskkill.exe (succeeding,
// failing the way Wine's does, hanging). Only the OS calls are injected.

const NODE = process.execPath
// Generous bounds where a real process must act (a loaded machine starts Node slowly); short ones where the bound itself is tested.
const ROOMY = { graceMs: 100, secondGraceMs: 100, windows: { taskkillTimeoutMs: 15_000, exitWaitMs: 10_000 } }
const SHORT_TASKKILL = { ...ROOMY, windows: { taskkillTimeoutMs: 400, exitWaitMs: 10_000 } }
const SHORT_EXIT = { ...ROOMY, windows: { taskkillTimeoutMs: 15_000, exitWaitMs: 300 } }

/** A "server" that starts one child and prints the child's pid, then idles. */
async function serverWithChild(): Promise<{ proc: SpawnedProcess; childPid: number }> {
  const script =
    `const ` +
    `c=require('child_process').spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'ignore'});console.log(c.pid);setInterval(()=>{},1000)`
  const proc = await spawnProcess(NODE, ['-e', script], { PATH: process.env.PATH ?? '' })
  const childPid = await new Promise<number>((resolve) =>
    proc.child.stdout?.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))),
  )
  return { proc, childPid }
}

interface TaskkillCall {
  readonly file: string
  readonly args: readonly string[]
  readonly options: object
}

type FakeTaskkill = 'kills-tree' | 'fails-like-wine' | 'hangs' | 'cannot-start'

function deps(
  kind: FakeTaskkill,
  table: () => { pid: number; parentPid: number }[],
  calls: TaskkillCall[],
  env: NodeJS.ProcessEnv = {},
): WindowsStopDeps & { terminated: number[] } {
  const terminated: number[] = []
  return {
    env,
    terminated,
    processTable: table,
    terminate: (pid) => {
      terminated.push(pid)
      try {
        process.kill(pid, 'SIGKILL')
        return true
      } catch {
        return false
      }
    },
    spawn: (file, args, options) => {
      calls.push({ file, args, options })
      if (kind === 'cannot-start') throw Object.assign(new Error('spawn taskkill.exe ENOENT'), { code: 'ENOENT' })
      const pid = Number(args[1])
      const victims = table()
        .filter((e) => e.parentPid === pid)
        .map((e) => e.pid)
        .concat(pid)
      const scripts: Record<Exclude<FakeTaskkill, 'cannot-start'>, string> = {
        'kills-tree': `for (const p of ${JSON.stringify(victims)}) { try { process.kill(p, 'SIGKILL') } catch {} } console.log('SUCCESS')`,
        'fails-like-wine': `console.error("ERROR: Invalid command line argument '/T'."); process.exit(1)`,
        hangs: 'setInterval(() => {}, 1000)',
      }
      return spawn(NODE, ['-e', scripts[kind]], { stdio: options.stdio })
    },
  }
}

/** /proc's parent links, as Toolhelp would give them on Windows. */
function linuxTable(): { pid: number; parentPid: number }[] {
  const out: { pid: number; parentPid: number }[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      out.push({ pid: Number(entry), parentPid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) })
    } catch {
      // exited meanwhile
    }
  }
  return out
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 20))
  return !isAlive(pid)
}

describe('stopping on Windows (the win32 branch, with taskkill and the OS injected)', () => {
  it('runs %SystemRoot%\\System32\\taskkill.exe /PID n /T /F hidden, without a shell, and reports a taskkill termination', async () => {
    const { proc, childPid } = await serverWithChild()
    const calls: TaskkillCall[] = []
    const d = deps('kills-tree', linuxTable, calls, { SystemRoot: 'D:\\Win' })
    const result = await stopProcessTree(proc, ROOMY, 'win32', d)
    expect(result.outcome).toBe('terminated')
    expect(result.detail).toBe('terminated with taskkill /T /F')
    expect(calls).toEqual([
      {
        file: 'D:\\Win\\System32\\taskkill.exe',
        args: ['/PID', String(proc.pid), '/T', '/F'],
        options: { windowsHide: true, shell: false, stdio: ['ignore', 'pipe', 'pipe'] },
      },
    ])
    expect(d.terminated).toEqual([]) // no fallback needed
    expect(await gone(childPid)).toBe(true)
  })

  it('when taskkill fails (Wine rejects /T), terminates the process and the children it found before the kill', async () => {
    const { proc, childPid } = await serverWithChild()
    const d = deps('fails-like-wine', linuxTable, [])
    const result = await stopProcessTree(proc, ROOMY, 'win32', d)
    expect(result.outcome).toBe('terminated')
    expect(result.detail).toBe(
      "terminated with TerminateProcess and 1 child process (taskkill exited with 1: ERROR: Invalid command line argument '/T'.)",
    )
    expect(d.terminated).toEqual([childPid])
    expect(result.exit.signal).toBe('SIGTERM') // child.kill() is TerminateProcess on Windows; on Linux, SIGTERM
    expect(await gone(childPid)).toBe(true)
  })

  it('abandons a hanging taskkill after its timeout and still resolves, with the process and its child gone', async () => {
    const { proc, childPid } = await serverWithChild()
    const d = deps('hangs', linuxTable, [])
    const started = Date.now()
    const result = await stopProcessTree(proc, SHORT_TASKKILL, 'win32', d)
    expect(result.outcome).toBe('terminated')
    expect(result.detail).toMatch(/^terminated with TerminateProcess and 1 child process \(taskkill did not finish within 0\.4 s\)$/)
    expect(Date.now() - started).toBeLessThan(20_000) // sanity only: it resolved at all
    expect(await gone(childPid)).toBe(true)
  })

  it('falls back when taskkill.exe cannot be started at all', async () => {
    const { proc, childPid } = await serverWithChild()
    const result = await stopProcessTree(proc, ROOMY, 'win32', deps('cannot-start', linuxTable, []))
    expect(result.detail).toMatch(
      /^terminated with TerminateProcess and 1 child process \(could not start taskkill: spawn taskkill\.exe ENOENT\)$/,
    )
    expect(await gone(childPid)).toBe(true)
  })

  it('resolves as unconfirmed, naming the pid, when nothing makes the process exit', async () => {
    const child = Object.assign(new EventEmitter(), { kill: () => true }) as unknown as ChildProcess
    const never: SpawnedProcess = { child, pid: 4242, exited: new Promise(() => {}), closed: new Promise(() => {}), hasExited: () => false }
    const result = await stopProcessTree(
      never,
      SHORT_EXIT,
      'win32',
      deps('fails-like-wine', () => [], []),
    )
    expect(result.outcome).toBe('unconfirmed')
    expect(result.exit).toEqual({ code: null, signal: null })
    expect(result.detail).toMatch(/but no exit was seen within 300 ms: pid 4242 may still be running$/)
  })

  it('does nothing to a process that has already exited', async () => {
    const proc = await spawnProcess(NODE, ['-e', ''], { PATH: process.env.PATH ?? '' })
    await proc.exited
    const calls: TaskkillCall[] = []
    const result = await stopProcessTree(proc, ROOMY, 'win32', deps('kills-tree', linuxTable, calls))
    expect(result).toMatchObject({ outcome: 'graceful', detail: 'had already exited' })
    expect(calls).toEqual([])
  })

  it('finds taskkill under C:\\Windows when SystemRoot is not set', () => {
    expect(taskkillPath({})).toBe('C:\\Windows\\System32\\taskkill.exe')
    expect(taskkillPath({ SYSTEMROOT: 'E:\\WINNT' })).toBe('E:\\WINNT\\System32\\taskkill.exe')
  })
})

describe('descendantsOf (the Toolhelp tree walk)', () => {
  it('walks children and grandchildren, skips others, survives self-links and cycles', () => {
    const table = [
      { pid: 10, parentPid: 1 },
      { pid: 11, parentPid: 10 },
      { pid: 12, parentPid: 11 },
      { pid: 13, parentPid: 10 },
      { pid: 20, parentPid: 1 },
      { pid: 30, parentPid: 30 },
      { pid: 40, parentPid: 41 },
      { pid: 41, parentPid: 40 },
    ]
    expect(descendantsOf(10, table)).toEqual([11, 13, 12])
    expect(descendantsOf(30, table)).toEqual([])
    expect(descendantsOf(40, table)).toEqual([41])
    expect(descendantsOf(99, table)).toEqual([])
  })
})
