import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { trayIconSource, TRAY_ICON_SIZES } from '../../main/tray-icon-files'
import { TRAY_ICON_STATES } from '../../main/tray-view'
import { REPO_ROOT } from '../helpers/paths'

// The committed icons are exactly what scripts/make-icons.mjs draws from
// resources/icons/icon-source.json (compared as pixels, so a zlib version
// does not matter), and they are what the tray and the packager expect.
interface IconScript {
  SOURCE: { tray: { sizes: number[]; states: Record<string, unknown> }; app: { icoSizes: number[]; pngSize: number } }
  renderTrayIcon(state: string, size: number): Buffer
  renderAppIcon(size: number): Buffer
  iconFiles(): { path: string; bytes: Buffer }[]
}
const script = (await import(join(REPO_ROOT, 'scripts', 'make-icons.mjs'))) as IconScript

/** Pixels of a PNG the script wrote (8-bit RGBA, filter 0 on every row). */
function pngPixels(png: Buffer): { size: number; rgba: Buffer } {
  const size = png.readUInt32BE(16)
  const chunks: Buffer[] = []
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at)
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT') chunks.push(png.subarray(at + 8, at + 8 + length))
    at += 12 + length
  }
  const raw = inflateSync(Buffer.concat(chunks))
  const rgba = Buffer.alloc(size * size * 4)
  for (let y = 0; y < size; y++) {
    expect(raw[y * (size * 4 + 1)]).toBe(0)
    raw.copy(rgba, y * size * 4, y * (size * 4 + 1) + 1, (y + 1) * (size * 4 + 1))
  }
  return { size, rgba }
}

/** The images of an .ico: DIB entries back to top-down RGBA, PNG entries decoded. */
function icoImages(ico: Buffer): { size: number; rgba: Buffer }[] {
  return Array.from({ length: ico.readUInt16LE(4) }, (_, i) => {
    const e = 6 + 16 * i
    const size = ico.readUInt8(e) || 256
    const data = ico.subarray(ico.readUInt32LE(e + 12), ico.readUInt32LE(e + 12) + ico.readUInt32LE(e + 8))
    if (data.subarray(1, 4).toString('ascii') === 'PNG') return pngPixels(data)
    expect([data.readUInt32LE(0), data.readInt32LE(4), data.readInt32LE(8), data.readUInt16LE(14)]).toEqual([40, size, size * 2, 32])
    const rgba = Buffer.alloc(size * size * 4)
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        const s = 40 + ((size - 1 - y) * size + x) * 4
        rgba.set([data[s + 2]!, data[s + 1]!, data[s]!, data[s + 3]!], (y * size + x) * 4)
      }
    }
    return { size, rgba }
  })
}

describe('icons', () => {
  it('the source names every tray state main uses, at the sizes Windows needs', () => {
    expect(Object.keys(script.SOURCE.tray.states).sort()).toEqual([...TRAY_ICON_STATES].sort())
    expect(script.SOURCE.tray.sizes).toEqual([...TRAY_ICON_SIZES])
  })

  it('every tray icon exists for every platform', () => {
    for (const state of TRAY_ICON_STATES) {
      for (const platform of ['win32', 'linux', 'darwin'] as const) {
        const source = trayIconSource(join(REPO_ROOT, 'resources', 'tray'), state, platform)
        const paths = source.kind === 'ico' ? [source.path] : source.images.map((i) => i.path)
        for (const path of paths) expect(existsSync(path), path).toBe(true)
      }
    }
  })

  it('the committed files are what the script draws now (regenerate with node scripts/make-icons.mjs)', () => {
    for (const { path } of script.iconFiles()) {
      const committed = readFileSync(join(REPO_ROOT, path))
      const name = path.split('/').pop()!
      if (path.endsWith('.ico')) {
        const state = name.replace('.ico', '')
        const images = icoImages(committed)
        const expectedSizes = path.startsWith('build/') ? script.SOURCE.app.icoSizes : script.SOURCE.tray.sizes
        expect(
          images.map((i) => i.size),
          path,
        ).toEqual(expectedSizes)
        for (const image of images) {
          const drawn = path.startsWith('build/') ? script.renderAppIcon(image.size) : script.renderTrayIcon(state, image.size)
          expect(image.rgba.equals(drawn), `${path} ${image.size}px`).toBe(true)
        }
      } else {
        const { size, rgba } = pngPixels(committed)
        const match = /^(\w+)-(\d+)\.png$/.exec(name)
        const drawn = match ? script.renderTrayIcon(match[1]!, Number(match[2])) : script.renderAppIcon(size)
        expect(rgba.equals(drawn), path).toBe(true)
      }
    }
  })

  it('states differ in shape, not only in colour (they read without colour vision)', () => {
    const silhouettes = TRAY_ICON_STATES.map((state) => {
      const rgba = script.renderTrayIcon(state, 32)
      return Array.from({ length: 32 * 32 }, (_, i) => (rgba[i * 4 + 3]! > 127 ? '1' : '0')).join('')
    })
    expect(new Set(silhouettes).size).toBe(TRAY_ICON_STATES.length)
  })
})
