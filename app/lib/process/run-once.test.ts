import { describe, expect, it } from 'vitest'
import { runOnce } from './run-once'

const NODE = process.execPath

/** Starts a grandchild that inherits our stdout and stderr and ignores SIGTERM, and prints its pid. */
const SLEEPER = `"process.on('SIGTERM', () => {}); setTimeout(() => {}, 600000)"`
const GRANDCHILD = `const g = require('node:child_process').spawn(process.execPath, ['-e', ${SLEEPER}], { stdio: ['ignore', 'inherit', 'inherit'] });
console.log('grandchild ' + g.pid);`

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function gone(pid: number): Promise<boolean> {
  // A sanity bound only: SIGKILL ends a sleeping process at once; a loaded machine reaps it a little later.
  for (const end = Date.now() + 20_000; isAlive(pid) && Date.now() < end;) await new Promise((r) => setTimeout(r, 20))
  return !isAlive(pid)
}

function pidsIn(stdout: string): { leader: number; grandchild: number } {
  return { leader: Number(/leader (\d+)/.exec(stdout)?.[1] ?? 0), grandchild: Number(/grandchild (\d+)/.exec(stdout)?.[1] ?? 0) }
}

/**
 * runOnce on a script that starts a grandchild, with a timeout long enough for both to have started:
 * a loaded machine may start Node slowly, so a run that timed out before both printed is repeated
 * with a longer timeout (the behaviour under test needs both processes up when the timeout comes).
 */
async function runWithGrandchild(script: string): Promise<Awaited<ReturnType<typeof runOnce>>> {
  let r: Awaited<ReturnType<typeof runOnce>> | null = null
  for (const timeoutMs of [1500, 10_000, 60_000]) {
    r = await runOnce(NODE, ['-e', script], timeoutMs)
    const { leader, grandchild } = pidsIn(r.stdout)
    if (leader > 0 && grandchild > 0) return r
  }
  return r as Awaited<ReturnType<typeof runOnce>>
}

describe('runOnce', () => {
  it('returns the output and the exit code of a program that ends', async () => {
    const r = await runOnce(NODE, ['-e', 'console.log("out"); console.error("err"); process.exit(3)'], 20_000)
    expect(r).toEqual({ code: 3, stdout: 'out\n', stderr: 'err\n', timedOut: false, spawnError: null })
  })

  it('resolves at the timeout for a hung program whose grandchild holds stdout, and kills the whole group', async () => {
    const hung = `${GRANDCHILD} console.log('leader ' + process.pid); process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)`
    const r = await runWithGrandchild(hung)
    expect(r).toMatchObject({ code: null, timedOut: true, spawnError: null })
    const { leader, grandchild } = pidsIn(r.stdout)
    expect(leader).toBeGreaterThan(0)
    expect(grandchild).toBeGreaterThan(0)
    expect(await gone(leader)).toBe(true)
    expect(await gone(grandchild)).toBe(true)
  }, 120_000)

  it('returns what a program printed when it exits but leaves a descendant holding its pipes, and ends that descendant', async () => {
    const r = await runWithGrandchild(`${GRANDCHILD} console.log('leader ' + process.pid); setTimeout(() => process.exit(0), 100)`)
    expect(r).toMatchObject({ code: 0, timedOut: false, spawnError: null })
    const { grandchild } = pidsIn(r.stdout)
    expect(await gone(grandchild)).toBe(true)
  }, 120_000)

  it('reports a program that cannot be started instead of throwing', async () => {
    const r = await runOnce('/nonexistent/program', [], 1000)
    expect(r).toMatchObject({ code: null, timedOut: false, spawnError: expect.stringContaining('ENOENT') })
  })
})
