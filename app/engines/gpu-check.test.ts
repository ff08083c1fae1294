import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FAKE_SERVER, model } from '../../test/helpers/paths'
import { isRunning } from '../../test/helpers/processes'
import { cachedVerdict, checkKey } from './check-cache'
import { checkEngine, GpuCheckFailedError } from './check-engine'
import { gpuCheckArgs, runGpuCheck, type GpuCheckRequest, type GpuCheckResult } from './gpu-check'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gpu-check-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

/** A llama-server that is the fake server in one mode, printing its pid first so the test can look for it afterwards. */
async function fakeBinary(mode: string): Promise<string> {
  const path = join(dir, `llama-server-${mode}`)
  await writeFile(path, `#!/bin/sh\necho "fake pid $$" >&2\nexec "${process.execPath}" "${FAKE_SERVER}" --fake-mode ${mode} "$@"\n`)
  await chmod(path, 0o755)
  return path
}
const pidIn = (log: readonly string[]): number => Number(/fake pid (\d+)/.exec(log.join('\n'))?.[1])

describe("the GPU check server's arguments", () => {
  it('puts one layer on the GPU for a GPU build and asks for the load log (-lv 4); a CPU build gets neither', () => {
    // At default verbosity a real CUDA build logs nothing of its load (engine-check-default-verbosity.log).
    expect(gpuCheckArgs('m.gguf', 1234, 'cuda-12')).toEqual([
      '-m',
      'm.gguf',
      '--host',
      '127.0.0.1',
      '--port',
      '1234',
      '-c',
      '512',
      '-np',
      '1',
      '-ngl',
      '1',
      '-lv',
      '4',
    ])
    expect(gpuCheckArgs('m.gguf', 1234, 'cpu')).toEqual(['-m', 'm.gguf', '--host', '127.0.0.1', '--port', '1234', '-c', '512', '-np', '1'])
  })
})

describe('the GPU check against fake servers', () => {
  it('a server never ready fails by the timeout, is killed, and the verdict is not cached (a busy machine may be why)', async () => {
    const binary = await fakeBinary('never-ready')
    const result = await runGpuCheck({ binary, backend: 'cpu', model: model('tiny-draft.gguf'), timeoutMs: 1500 })
    expect(result).toMatchObject({ ok: false, reason: 'it did not answer within 1.5 s', transient: true })
    expect(isRunning(pidIn(result.log))).toBe(false)
    const check = (r: GpuCheckRequest): Promise<GpuCheckResult> => runGpuCheck({ ...r, timeoutMs: 1500 })
    const request = { home: dir, tag: 'b7000', backend: 'cpu', binary, binarySha256: 'ab', driverVersion: null, check } as const
    const err = await checkEngine(request).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GpuCheckFailedError)
    expect(await cachedVerdict(dir, checkKey('ab', null, 'cpu'))).toBeNull()
  })

  it('a CUDA build that sees no GPU at all fails, but that verdict is not cached (the GPU may only be hidden)', async () => {
    const binary = await fakeBinary('no-gpu-device')
    const result = await runGpuCheck({ binary, backend: 'cuda-12', model: model('tiny-draft.gguf') })
    expect(result).toMatchObject({
      ok: false,
      reason: 'the CUDA runtime did not start: no CUDA-capable device is detected',
      transient: true,
    })
    const request = { home: dir, tag: 'b7000', backend: 'cuda-12', binary, binarySha256: 'cd', driverVersion: '580.1' } as const
    await expect(checkEngine(request)).rejects.toBeInstanceOf(GpuCheckFailedError)
    expect(await cachedVerdict(dir, checkKey('cd', '580.1', 'cuda-12'))).toBeNull()
  })

  it('a server that crashes while loading fails with its exit, and the server is gone', async () => {
    const result = await runGpuCheck({ binary: await fakeBinary('crash-loading'), backend: 'cpu', model: model('tiny-draft.gguf') })
    expect(result).toMatchObject({ ok: false, reason: 'it exited with code 1 before it was ready' })
    expect(isRunning(pidIn(result.log))).toBe(false)
  })

  it('a binary that cannot be started says so', async () => {
    const result = await runGpuCheck({ binary: join(dir, 'missing-llama-server'), backend: 'cpu', model: model('tiny-draft.gguf') })
    expect(result.ok).toBe(false)
    expect(result.ok ? '' : result.reason).toMatch(/^it could not be started \(spawn .* ENOENT\)$/)
  })

  it('a cancelled check throws instead of failing the build (no fallback, no verdict)', async () => {
    const ac = new AbortController()
    const binary = await fakeBinary('never-ready')
    const check = runGpuCheck({ binary, backend: 'cpu', model: model('tiny-draft.gguf'), signal: ac.signal })
    ac.abort(new Error('cancelled by the user'))
    await expect(check).rejects.toThrow('cancelled by the user')
  })
})
