// Draws every icon from resources/icons/icon-source.json, with no image tooling:
// shapes are signed distance functions sampled 4×4 per pixel, PNGs are encoded
// with zlib, and .ico files are written by hand (small sizes as 32-bit DIBs,
// which every Windows icon loader reads; 256 px as PNG).
//   node scripts/make-icons.mjs          writes resources/tray/* and build/icon.*
// Outputs: resources/tray/<state>.ico (16/20/24/32) and <state>-<size>.png,
// resources/icon.png (256, window icon), build/icon.png (512), build/icon.ico.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { crc32, deflateSync } from 'node:zlib'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const SOURCE = JSON.parse(readFileSync(join(root, 'resources', 'icons', 'icon-source.json'), 'utf8'))

const hex = (color) => [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16))
const length = (x, y) => Math.hypot(x, y)

// Signed distances in unit coordinates (negative inside).
const circle = (x, y, r) => length(x - 0.5, y - 0.5) - r
const ring = (x, y, r, t) => Math.abs(length(x - 0.5, y - 0.5) - r) - t / 2
function segment(x, y, ax, ay, bx, by, r) {
  const px = x - ax,
    py = y - ay,
    dx = bx - ax,
    dy = by - ay
  const h = Math.max(0, Math.min(1, (px * dx + py * dy) / (dx * dx + dy * dy)))
  return length(px - dx * h, py - dy * h) - r
}
function triangle(x, y, size) {
  // Equilateral triangle pointing up, centred a little low so it looks centred.
  const k = Math.sqrt(3)
  let px = Math.abs(x - 0.5) / size,
    py = -(y - 0.6) / size
  px = px - 1
  py = py + 1 / k
  if (px + k * py > 0) [px, py] = [(px - k * py) / 2, (-k * px - py) / 2]
  px -= Math.max(-2, Math.min(0, px))
  return -length(px, py) * Math.sign(py) * size
}
function roundedSquare(x, y, half, radius) {
  const qx = Math.abs(x - 0.5) - half + radius,
    qy = Math.abs(y - 0.5) - half + radius
  return length(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius
}
const inGap = (x, y) => {
  const a = Math.atan2(y - 0.5, x - 0.5) // 0 = right, positive = down
  return a > -Math.PI / 2 && a < 0 // the upper right quarter is open: "in progress"
}

/** Layers (drawn in order) for one tray state: each is [coverage test, colour]. */
function trayLayers(state, pixel) {
  const spec = SOURCE.tray.states[state]
  const color = hex(spec.color)
  const outline = hex(SOURCE.outline)
  const e = 1.1 / pixel // outline width: about one pixel at any size
  switch (spec.glyph) {
    case 'disc':
      return [
        [(x, y) => circle(x, y, 0.4) < e, outline],
        [(x, y) => circle(x, y, 0.4) < 0, color],
      ]
    case 'ring':
      return [
        [(x, y) => ring(x, y, 0.34, 0.16) < e, outline],
        [(x, y) => ring(x, y, 0.34, 0.16) < 0, color],
      ]
    case 'arc':
      return [
        [(x, y) => ring(x, y, 0.34, 0.18) < e && !inGap(x, y), outline],
        [(x, y) => ring(x, y, 0.34, 0.18) < 0 && !inGap(x, y), color],
        [(x, y) => circle(x, y, 0.12) < e, outline],
        [(x, y) => circle(x, y, 0.12) < 0, color],
      ]
    case 'triangle': {
      const mark = hex(spec.mark)
      return [
        [(x, y) => triangle(x, y, 0.43) < e, outline],
        [(x, y) => triangle(x, y, 0.43) < 0, color],
        [(x, y) => segment(x, y, 0.5, 0.42, 0.5, 0.62, 0.055) < 0, mark],
        [(x, y) => circle(x, y - 0.24, 0.055) < 0, mark],
      ]
    }
    case 'cross': {
      const mark = hex(spec.mark)
      return [
        [(x, y) => circle(x, y, 0.42) < e, outline],
        [(x, y) => circle(x, y, 0.42) < 0, color],
        [(x, y) => segment(x, y, 0.34, 0.34, 0.66, 0.66, 0.065) < 0 || segment(x, y, 0.34, 0.66, 0.66, 0.34, 0.065) < 0, mark],
      ]
    }
    default:
      throw new Error(`unknown glyph ${spec.glyph}`)
  }
}

function appLayers() {
  const { background, accent, ring: ringColor } = SOURCE.app
  return [
    [(x, y) => roundedSquare(x, y, 0.46, 0.1) < 0, hex(background)],
    [(x, y) => ring(x, y, 0.27, 0.07) < 0, hex(ringColor)],
    [(x, y) => circle(x, y, 0.15) < 0, hex(accent)],
  ]
}

/** Rasterizes layers to straight-alpha RGBA, 4×4 samples per pixel. */
export function rasterize(size, layers) {
  const out = Buffer.alloc(size * size * 4)
  const n = 4
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0 // premultiplied accumulation over samples
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (px + (sx + 0.5) / n) / size
          const y = (py + (sy + 0.5) / n) / size
          let cr = 0,
            cg = 0,
            cb = 0,
            ca = 0
          for (const [inside, color] of layers) {
            if (!inside(x, y)) continue
            cr = color[0]
            cg = color[1]
            cb = color[2]
            ca = 1
          }
          r += cr * ca
          g += cg * ca
          b += cb * ca
          a += ca
        }
      }
      const o = (py * size + px) * 4
      if (a > 0) {
        out[o] = Math.round(r / a)
        out[o + 1] = Math.round(g / a)
        out[o + 2] = Math.round(b / a)
      }
      out[o + 3] = Math.round((a / (n * n)) * 255)
    }
  }
  return out
}

export const renderTrayIcon = (state, size) => rasterize(size, trayLayers(state, size))
export const renderAppIcon = (size) => rasterize(size, appLayers())

function pngChunk(type, data) {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}

export function encodePng(size, rgba) {
  const raw = Buffer.alloc(size * (size * 4 + 1))
  for (let y = 0; y < size; y++) rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4) // filter 0 per row
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(size, 0)
  ihdr.writeUInt32BE(size, 4)
  ihdr.set([8, 6, 0, 0, 0], 8) // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/** A 32-bit DIB icon image: BITMAPINFOHEADER, BGRA rows bottom-up, then the 1-bit AND mask. */
function encodeDib(size, rgba) {
  const header = Buffer.alloc(40)
  const maskRow = Math.ceil(size / 32) * 4
  const xor = Buffer.alloc(size * size * 4)
  const and = Buffer.alloc(maskRow * size)
  for (let y = 0; y < size; y++) {
    const row = size - 1 - y
    for (let x = 0; x < size; x++) {
      const s = (y * size + x) * 4,
        d = (row * size + x) * 4
      xor[d] = rgba[s + 2]
      xor[d + 1] = rgba[s + 1]
      xor[d + 2] = rgba[s]
      xor[d + 3] = rgba[s + 3]
      if (rgba[s + 3] === 0) and[row * maskRow + (x >> 3)] |= 0x80 >> (x & 7)
    }
  }
  header.writeUInt32LE(40, 0)
  header.writeInt32LE(size, 4)
  header.writeInt32LE(size * 2, 8) // XOR and AND masks stacked
  header.writeUInt16LE(1, 12)
  header.writeUInt16LE(32, 14)
  header.writeUInt32LE(xor.length + and.length, 20)
  return Buffer.concat([header, xor, and])
}

/** An .ico container: ICONDIR, one ICONDIRENTRY per image, then the images. */
export function encodeIco(images) {
  const dir = Buffer.alloc(6 + 16 * images.length)
  dir.writeUInt16LE(0, 0)
  dir.writeUInt16LE(1, 2) // type 1 = icon
  dir.writeUInt16LE(images.length, 4)
  const blobs = images.map(({ size, rgba }) => (size >= 256 ? encodePng(size, rgba) : encodeDib(size, rgba)))
  let offset = dir.length
  images.forEach(({ size }, i) => {
    const e = 6 + 16 * i
    dir.writeUInt8(size >= 256 ? 0 : size, e) // 0 means 256
    dir.writeUInt8(size >= 256 ? 0 : size, e + 1)
    dir.writeUInt8(0, e + 2) // no palette
    dir.writeUInt8(0, e + 3)
    dir.writeUInt16LE(1, e + 4) // planes
    dir.writeUInt16LE(32, e + 6) // bits per pixel
    dir.writeUInt32LE(blobs[i].length, e + 8)
    dir.writeUInt32LE(offset, e + 12)
    offset += blobs[i].length
  })
  return Buffer.concat([dir, ...blobs])
}

/** Every file the script writes, as { path relative to the repo, bytes }. */
export function iconFiles() {
  const files = []
  for (const state of Object.keys(SOURCE.tray.states)) {
    const images = SOURCE.tray.sizes.map((size) => ({ size, rgba: renderTrayIcon(state, size) }))
    files.push({ path: `resources/tray/${state}.ico`, bytes: encodeIco(images) })
    for (const { size, rgba } of images) files.push({ path: `resources/tray/${state}-${size}.png`, bytes: encodePng(size, rgba) })
  }
  files.push({ path: 'resources/icon.png', bytes: encodePng(256, renderAppIcon(256)) })
  files.push({ path: 'build/icon.png', bytes: encodePng(SOURCE.app.pngSize, renderAppIcon(SOURCE.app.pngSize)) })
  files.push({ path: 'build/icon.ico', bytes: encodeIco(SOURCE.app.icoSizes.map((size) => ({ size, rgba: renderAppIcon(size) }))) })
  return files
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const { path, bytes } of iconFiles()) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), bytes)
    console.log(`${path} (${bytes.length} bytes)`)
  }
}
