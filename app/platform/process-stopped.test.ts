import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { processStopped } from './process-stopped'

const linux = process.platform === 'linux'

/** Waits until the kernel shows the state (a signal is delivered asynchronously). */
async function until(pid: number, stopped: boolean): Promise<void> {
  while (processStopped(pid) !== stopped) await new Promise((r) => setImmediate(r))
}

describe('processStopped', () => {
  it.runIf(linux)('reads a stopped process as stopped and a continued one as not', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })
    const pid = child.pid as number
    try {
      await until(pid, false)
      process.kill(pid, 'SIGSTOP')
      await until(pid, true)
      expect(processStopped(pid)).toBe(true)
      process.kill(pid, 'SIGCONT')
      await until(pid, false)
      expect(processStopped(pid)).toBe(false)
    } finally {
      child.kill('SIGKILL')
    }
  })

  it('says nothing where the platform shows no state, or of a process that is gone', () => {
    expect(processStopped(process.pid, 'win32')).toBeNull()
    expect(processStopped(process.pid, 'darwin')).toBeNull()
    if (linux) expect(processStopped(2 ** 22 + 7)).toBeNull()
  })
})
