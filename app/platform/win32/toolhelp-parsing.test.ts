import { describe, expect, it } from 'vitest'
import { normalizeImageName } from '../process-source'
import {
  PROCESSENTRY32W_SIZE,
  PROCESS_MEMORY_COUNTERS_SIZE,
  filetimeToMs,
  newProcessEntryBuffer,
  parseProcessEntry32W,
  parseWorkingSetKiB,
} from './toolhelp-parsing'

describe('Win32 structure decoding (64-bit layouts)', () => {
  it('decodes a PROCESSENTRY32W as Process32NextW fills it', () => {
    const buf = newProcessEntryBuffer()
    expect(buf.readUInt32LE(0)).toBe(PROCESSENTRY32W_SIZE)
    buf.writeUInt32LE(4242, 8)
    buf.writeUInt32LE(600, 32)
    buf.write('msedge.exe\0garbage-after-nul', 44, 'utf16le')
    expect(parseProcessEntry32W(buf)).toEqual({ pid: 4242, parentPid: 600, exeFile: 'msedge.exe' })
    expect(parseProcessEntry32W(Buffer.alloc(100))).toBeNull()
  })

  it('reads a full-length (MAX_PATH) name and non-ASCII names', () => {
    const buf = newProcessEntryBuffer()
    buf.write('Überwachung.exe', 44, 'utf16le')
    expect(parseProcessEntry32W(buf)?.exeFile).toBe('Überwachung.exe')
    const long = newProcessEntryBuffer()
    long.write('a'.repeat(300), 44, 'utf16le')
    expect(parseProcessEntry32W(long)?.exeFile).toHaveLength(260)
  })

  it('converts FILETIME durations and reads the working set', () => {
    expect(filetimeToMs(15_625_000n)).toBe(1562.5)
    const pmc = Buffer.alloc(PROCESS_MEMORY_COUNTERS_SIZE)
    pmc.writeBigUInt64LE(512n * 1024n * 1024n, 16)
    expect(parseWorkingSetKiB(pmc)).toBe(512 * 1024)
    expect(parseWorkingSetKiB(Buffer.alloc(8))).toBeNull()
  })

  it('normalizes image names for matching', () => {
    expect(normalizeImageName('C:\\Program Files\\Google\\Chrome.EXE')).toBe('chrome')
    expect(normalizeImageName('firefox-bin')).toBe('firefox-bin')
  })
})
