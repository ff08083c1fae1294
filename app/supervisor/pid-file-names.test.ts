import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { PidFiles, runningProfileIds } from './pid-file'
import { readProcessIdentity } from './process-identity'

// One process may supervise several servers (the active profile and the pinned ones): each has its own pid file.
describe('pid files of several servers in one process', () => {
  const children: ChildProcess[] = []
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGKILL')
  })

  async function liveRecord(dir: string, files: PidFiles, profileId: string): Promise<number> {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', windowsHide: true })
    children.push(child)
    const pid = child.pid as number
    const identity = await readProcessIdentity(pid)
    await files.write({ pid, ownerPid: process.pid, exe: process.execPath, port: null, identity, startedAt: Date.now(), profileId })
    return pid
  }

  it("a supervisor's orphan search never takes another server of this same process for an orphan", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'llama-tray-pid-names-'))
    try {
      const main = new PidFiles(dir)
      const pinned = new PidFiles(dir, undefined, undefined, 'embed')
      const mainPid = await liveRecord(dir, main, 'qwen')
      const pinnedPid = await liveRecord(dir, pinned, 'embed')
      // Each sees only its own file of this process (a record left by an earlier process of the same pid would be its own).
      expect((await main.findOrphans()).map((r) => r.pid)).toEqual([mainPid])
      expect((await pinned.findOrphans()).map((r) => r.pid)).toEqual([pinnedPid])
      expect((await runningProfileIds(dir)).sort()).toEqual(['embed', 'qwen'])
      await pinned.remove()
      expect(await runningProfileIds(dir)).toEqual(['qwen'])
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
