// Writes resources/icon.png (a 32×32 filled circle) without image tooling.
import { writeFileSync } from 'node:fs'
import { deflateSync, crc32 } from 'node:zlib'

const size = 32
const raw = Buffer.alloc(size * (size * 4 + 1))
for (let y = 0; y < size; y++) {
  raw[y * (size * 4 + 1)] = 0
  for (let x = 0; x < size; x++) {
    const d = Math.hypot(x - 15.5, y - 15.5)
    const o = y * (size * 4 + 1) + 1 + x * 4
    const inside = d < 14
    raw.set(inside ? [0x4c, 0xaf, 0x50, 0xff] : [0, 0, 0, 0], o)
  }
}
const chunk = (type, data) => {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const td = Buffer.concat([Buffer.from(type), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(td))
  return Buffer.concat([len, td, crc])
}
const ihdr = Buffer.alloc(13)
ihdr.writeUInt32BE(size, 0)
ihdr.writeUInt32BE(size, 4)
ihdr.set([8, 6, 0, 0, 0], 8)
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))])
writeFileSync(new URL('../resources/icon.png', import.meta.url), png)
