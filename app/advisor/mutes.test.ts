import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MUTES_FILE, MuteStore } from './mutes'

const homes: string[] = []
const home = (): string => {
  const h = mkdtempSync(join(tmpdir(), 'llama-tray-mutes-'))
  homes.push(h)
  return h
}
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true })
})

describe('advisor-mutes.json', () => {
  it('reads a file written by earlier versions and keeps its format when changed', async () => {
    const h = home()
    writeFileSync(
      join(h, MUTES_FILE),
      `${JSON.stringify({ version: 1, profiles: { qwen: ['live.gpu-hot', 'lint.duplicate-flag:-c'] } }, null, 2)}\n`,
    )
    const mutes = new MuteStore(h)
    await mutes.ready
    expect(mutes.isMuted('qwen', 'live.gpu-hot', 'live.gpu-hot')).toBe(true)
    expect(mutes.isMuted('qwen', 'lint.duplicate-flag', 'lint.duplicate-flag:-c')).toBe(true)
    expect(mutes.isMuted('other', 'live.gpu-hot', 'live.gpu-hot')).toBe(false)
    await mutes.unmute('qwen', 'live.gpu-hot')
    await mutes.mute('draft', 'live.heavy-apps')
    expect(JSON.parse(readFileSync(join(h, MUTES_FILE), 'utf8'))).toEqual({
      version: 1,
      profiles: { qwen: ['lint.duplicate-flag:-c'], draft: ['live.heavy-apps'] },
    })
    await mutes.unmute('draft', 'live.heavy-apps')
    expect(JSON.parse(readFileSync(join(h, MUTES_FILE), 'utf8')).profiles).toEqual({ qwen: ['lint.duplicate-flag:-c'] })
    expect(mutes.messages).toEqual([])
  })

  it('sets a damaged file aside with a notice instead of overwriting it on the next mute', async () => {
    const h = home()
    writeFileSync(join(h, MUTES_FILE), '{"version":1,"profiles":{"qwen":[')
    const mutes = new MuteStore(h)
    await mutes.ready
    expect(mutes.list('qwen')).toEqual([])
    expect(mutes.messages).toEqual([expect.stringMatching(/^The warning mutes file .+ could not be read \(.+\); it was moved to .+\.$/)])
    await mutes.mute('qwen', 'live.gpu-hot')
    const aside = readdirSync(h).filter((f) => f.startsWith(`${MUTES_FILE}.corrupt-`))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(h, aside[0]!), 'utf8')).toBe('{"version":1,"profiles":{"qwen":[')
  })
})
