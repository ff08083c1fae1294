import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_WINDOW_STATE, fitToDisplays, loadWindowState, WINDOW_STATE_FILE, WindowStateSaver } from './window-state'

let home: string
beforeEach(() => (home = mkdtempSync(join(tmpdir(), 'llama-tray-ws-'))))
afterEach(() => rmSync(home, { recursive: true, force: true }))

const laptop = [{ x: 0, y: 0, width: 1920, height: 1040 }]
const fileText = (): unknown => JSON.parse(readFileSync(join(home, WINDOW_STATE_FILE), 'utf8'))
const asideFiles = (): string[] => readdirSync(home).filter((n) => n.startsWith(`${WINDOW_STATE_FILE}.corrupt-`))

describe('window state', () => {
  it('round-trips through the saver, one write per burst, with a version and the previous file as .bak', async () => {
    const saver = new WindowStateSaver(home, 10_000)
    saver.schedule({ x: 5, y: 6, width: 900, height: 600, maximized: false })
    await saver.flush()
    saver.schedule({ x: 7, y: 8, width: 950, height: 650, maximized: false })
    saver.schedule({ x: 50, y: 60, width: 1000, height: 700, maximized: true })
    await saver.flush()
    expect(await loadWindowState(home)).toEqual({ x: 50, y: 60, width: 1000, height: 700, maximized: true })
    expect(fileText()).toEqual({ version: 1, x: 50, y: 60, width: 1000, height: 700, maximized: true })
    expect(JSON.parse(readFileSync(join(home, `${WINDOW_STATE_FILE}.bak`), 'utf8'))).toMatchObject({ x: 5, y: 6 })
    await saver.flush() // nothing pending: no write, no error
  })

  it('reads the unversioned file of earlier releases', async () => {
    writeFileSync(join(home, WINDOW_STATE_FILE), JSON.stringify({ x: 1, y: 2, width: 800, height: 600, maximized: false }))
    expect(await loadWindowState(home)).toEqual({ x: 1, y: 2, width: 800, height: 600, maximized: false })
  })

  it('a missing file gives the defaults without a word', async () => {
    const notices: string[] = []
    expect(await loadWindowState(home, (n) => notices.push(n))).toEqual(DEFAULT_WINDOW_STATE)
    expect(notices).toEqual([])
  })

  it.each([
    ['not json', '{'],
    ['empty', ''],
    ['NUL-filled', '\0\0\0\0'],
    ['wrong shape', '{"width":"big"}'],
    ['absurd size', '{"x":0,"y":0,"width":1,"height":1,"maximized":false}'],
  ])('a damaged file (%s) is moved aside, kept as it was, and the defaults used with a notice', async (_name, text) => {
    writeFileSync(join(home, WINDOW_STATE_FILE), text)
    const notices: string[] = []
    expect(await loadWindowState(home, (n) => notices.push(n))).toEqual(DEFAULT_WINDOW_STATE)
    const aside = asideFiles()
    expect(aside.length).toBe(1)
    expect(readFileSync(join(home, aside[0]!), 'utf8')).toBe(text)
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatch(/^The window state file .*window-state\.json could not be read \(.+\); it was moved to .*\.corrupt-.*\.$/)
  })

  it('a damaged file is replaced by its backup, the last good state', async () => {
    const saver = new WindowStateSaver(home, 10_000)
    saver.schedule({ x: 10, y: 20, width: 900, height: 600, maximized: false })
    await saver.flush()
    saver.schedule({ x: 30, y: 40, width: 900, height: 600, maximized: true })
    await saver.flush()
    writeFileSync(join(home, WINDOW_STATE_FILE), '{"version":1,"x":')
    const notices: string[] = []
    expect(await loadWindowState(home, (n) => notices.push(n))).toEqual({ x: 10, y: 20, width: 900, height: 600, maximized: false })
    expect(notices[1]).toBe(`The window state file was restored from its backup ${join(home, WINDOW_STATE_FILE)}.bak.`)
    expect(fileText()).toMatchObject({ x: 10, y: 20 })
  })

  it('a folder where the file should be gives the defaults and one sentence naming it', async () => {
    mkdirSync(join(home, WINDOW_STATE_FILE))
    const notices: string[] = []
    expect(await loadWindowState(home, (n) => notices.push(n))).toEqual(DEFAULT_WINDOW_STATE)
    expect(notices).toEqual([
      `${join(home, WINDOW_STATE_FILE)} is a folder where Llama Tray keeps its window state file; move that folder away and try again.`,
    ])
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
    // A file where the home folder should be: nothing can be written below it.
    const blocked = join(home, 'blocked')
    writeFileSync(blocked, '')
    const saver = new WindowStateSaver(blocked, 10, (err) => errors.push(err.message))
    saver.schedule(DEFAULT_WINDOW_STATE)
    await saver.flush()
    expect(errors.length).toBe(1)
    expect(() => readFileSync(join(home, WINDOW_STATE_FILE))).toThrow()
  })
})
