import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { changeUpdateState, ENGINE_UPDATES_FILE, readUpdateState, updateStateStore } from './update-state'

const homes: string[] = []
const home = (): string => {
  const h = mkdtempSync(join(tmpdir(), 'llama-tray-update-state-'))
  homes.push(h)
  return h
}
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true })
})

// A file as earlier versions wrote it (JSON.stringify with two spaces, version 1).
const OLD_FILE = {
  version: 1,
  lastCheckAt: '2026-11-30T08:00:00.000Z',
  latestTag: 'b7000',
  latestPublishedAt: '2026-11-29T12:00:00Z',
  rollbacks: {
    qwen: { previousBinary: '/engines/b6900/llama-server', updatedBinary: '/engines/b7000/llama-server', at: '2026-11-30T08:01:00.000Z' },
  },
}

describe('engine-updates.json', () => {
  it('reads a file written by earlier versions and keeps its format when changed', async () => {
    const h = home()
    writeFileSync(join(h, ENGINE_UPDATES_FILE), `${JSON.stringify(OLD_FILE, null, 2)}\n`)
    expect(await readUpdateState(h)).toEqual(OLD_FILE)
    await changeUpdateState(h, (s) => {
      s.latestTag = 'b7100'
    })
    expect(JSON.parse(readFileSync(join(h, ENGINE_UPDATES_FILE), 'utf8'))).toEqual({ ...OLD_FILE, latestTag: 'b7100' })
    expect(JSON.parse(readFileSync(join(h, `${ENGINE_UPDATES_FILE}.bak`), 'utf8'))).toEqual(OLD_FILE)
  })

  it('sets a damaged file aside with a notice and starts empty', async () => {
    const h = home()
    writeFileSync(join(h, ENGINE_UPDATES_FILE), '{"version":1,"lastCheckAt":')
    const state = await readUpdateState(h)
    expect(state).toEqual({ version: 1, lastCheckAt: null, latestTag: null, latestPublishedAt: null, rollbacks: {} })
    const aside = readdirSync(h).filter((f) => f.startsWith(`${ENGINE_UPDATES_FILE}.corrupt-`))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(h, aside[0]!), 'utf8')).toBe('{"version":1,"lastCheckAt":')
    expect(updateStateStore(h).notices).toEqual([
      expect.stringMatching(/^The engine update state .+ could not be read \(.+\); it was moved to .+\.$/),
    ])
  })

  it('a state read is a copy: changing it does not change the store', async () => {
    const h = home()
    const state = await readUpdateState(h)
    state.rollbacks.x = { previousBinary: 'a', updatedBinary: 'b', at: 'now' }
    expect((await readUpdateState(h)).rollbacks).toEqual({})
  })
})
