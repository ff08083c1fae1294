import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_WINDOW_STATE, fitToDisplays, loadWindowState, WINDOW_STATE_FILE, WindowStateSaver } from './window-state'

let home: string
beforeEach(() => (home = mkdtempSync(join(tmpdir(), 'llama-tray-ws-'))))
afterEach(() => rmSync(home, { recursive: true, force: true }))

const laptop = [{ x: 0, y: 0, width: 1920, height: 1040 }]

describe('window state', () => {
  it('round-trips through the saver, one write per burst', async () => {
    const saver = new WindowStateSaver(home, 10_000)
    saver.schedule({ x: 5, y: 6, width: 900, height: 600, maximized: false })
    saver.schedule({ x: 50, y: 60, width: 1000, height: 700, maximized: true })
    await saver.flush()
    expect(loadWindowState(home)).toEqual({ x: 50, y: 60, width: 1000, height: 700, maximized: true })
    await saver.flush() // nothing pending: no write, no error
  })

  it.each([
    ['missing', null],
    ['not json', '{'],
    ['wrong shape', '{"width":"big"}'],
    ['absurd size', '{"x":0,"y":0,"width":1,"height":1,"maximized":false}'],
  ])('%s file gives the defaults', (_name, text) => {
    if (text !== null) writeFileSync(join(home, WINDOW_STATE_FILE), text)
    expect(loadWindowState(home)).toEqual(DEFAULT_WINDOW_STATE)
  })

  it('keeps a position on a display, recentres one on a monitor that is gone, and shrinks to fit', () => {
    expect(fitToDisplays({ x: 100, y: 100, width: 1000, height: 700, maximized: false }, laptop)).toMatchObject({ x: 100, y: 100 })
    expect(fitToDisplays({ x: 2500, y: 100, width: 1000, height: 700, maximized: false }, laptop)).toMatchObject({ x: null, y: null })
    expect(fitToDisplays({ x: 0, y: 0, width: 3800, height: 2100, maximized: false }, laptop)).toMatchObject({ width: 1920, height: 1040 })
    expect(
      fitToDisplays({ x: -1900, y: 0, width: 1000, height: 700, maximized: false }, [
        ...laptop,
        { x: -1920, y: 0, width: 1920, height: 1080 },
      ]),
    ).toMatchObject({ x: -1900 })
  })

  it('reports a failed write instead of throwing', async () => {
    const errors: string[] = []
    const saver = new WindowStateSaver(join(home, 'missing', 'deeper'), 10, (err) => errors.push(err.message))
    saver.schedule(DEFAULT_WINDOW_STATE)
    await saver.flush()
    expect(errors.length).toBe(1)
    expect(() => readFileSync(join(home, WINDOW_STATE_FILE))).toThrow()
  })
})
