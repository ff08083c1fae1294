import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { GpuRuntimeStore, RUNTIME_FILE } from './runtime-store'

const homes: string[] = []
afterEach(async () => {
  for (const h of homes.splice(0)) await rm(h, { recursive: true, force: true })
})
async function home(): Promise<string> {
  const h = await mkdtemp(join(tmpdir(), 'llama-tray-runtime-'))
  homes.push(h)
  return h
}

describe('GpuRuntimeStore', () => {
  it('answers the median of the last five measurements per GPU model, and keeps them across opens', async () => {
    const h = await home()
    const store = await GpuRuntimeStore.open(h)
    expect(store.runtimeMiB('RTX 4060 Laptop')).toBeNull()
    for (const v of [400, 420, 380, 1900, 410, 405]) await store.record('RTX 4060 Laptop', v)
    await store.record('H200', 700)
    // The last five: 420, 380, 1900, 410, 405 → 410; one disturbed launch (1900) does not move it.
    expect(store.runtimeMiB('RTX 4060 Laptop')).toBe(410)
    const reopened = await GpuRuntimeStore.open(h)
    expect(reopened.runtimeMiB('RTX 4060 Laptop')).toBe(410)
    expect(reopened.runtimeMiB('H200')).toBe(700)
  })

  it('ignores implausible measurements (another app freed or took VRAM meanwhile)', async () => {
    const store = await GpuRuntimeStore.open(await home())
    expect(await store.record('g', -61)).toBe(false)
    expect(await store.record('g', 12)).toBe(false)
    expect(await store.record('g', 9000)).toBe(false)
    expect(await store.record('g', Number.NaN)).toBe(false)
    expect(store.runtimeMiB('g')).toBeNull()
  })

  it('reads a file written by earlier versions', async () => {
    const h = await home()
    const old = { version: 1, gpus: { 'NVIDIA H200': { samplesMiB: [690, 700, 710], updatedAt: '2026-11-30T08:00:00.000Z' } } }
    await writeFile(join(h, RUNTIME_FILE), `${JSON.stringify(old, null, 2)}\n`)
    const store = await GpuRuntimeStore.open(h)
    expect(store.runtimeMiB('NVIDIA H200')).toBe(700)
    expect(store.messages).toEqual([])
  })

  it('sets a corrupt file aside with a notice, reads as empty and starts again on the next measurement', async () => {
    const h = await home()
    await writeFile(join(h, RUNTIME_FILE), '{"version": 7, "gpus": []')
    const store = await GpuRuntimeStore.open(h)
    expect(store.runtimeMiB('g')).toBeNull()
    const aside = (await readdir(h)).filter((f) => f.startsWith(`${RUNTIME_FILE}.corrupt-`))
    expect(aside).toHaveLength(1)
    expect(await readFile(join(h, aside[0]!), 'utf8')).toBe('{"version": 7, "gpus": []')
    expect(store.messages).toEqual([expect.stringMatching(/^The GPU runtime file .+ could not be read \(.+\); it was moved to .+\.$/)])
    await store.record('g', 500)
    expect(JSON.parse(await readFile(join(h, RUNTIME_FILE), 'utf8'))).toMatchObject({ version: 1, gpus: { g: { samplesMiB: [500] } } })
  })
})
