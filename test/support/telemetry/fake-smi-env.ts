import path from 'node:path'
import { fakeSmiDir } from './paths'

/** An environment with the fake nvidia-smi first on PATH and the given faults (see its header). */
export function fakeSmiEnv(faults = '', extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${fakeSmiDir}${path.delimiter}${process.env.PATH ?? ''}`, FAKE_SMI: faults, ...extra }
}

/** True while a process with this pid exists (a zombie counts until reaped). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}

/** Polls until check() is true or the deadline passes; returns check()'s last answer. */
export async function waitFor(check: () => boolean, timeoutMs: number, stepMs = 20): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) return false
    await sleep(stepMs)
  }
  return true
}
