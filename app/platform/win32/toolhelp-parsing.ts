/**
 * Pure decoding of the Win32 structures WindowsProcessSource reads through
 * koffi, kept apart so it is unit-tested on any platform (x64 / arm64 layouts).
 */

/** sizeof(PROCESSENTRY32W) on 64-bit Windows. */
export const PROCESSENTRY32W_SIZE = 568
const PE_PID = 8
const PE_PARENT_PID = 32
const PE_EXE_FILE = 44
const MAX_PATH = 260

/** sizeof(PROCESS_MEMORY_COUNTERS) on 64-bit Windows; WorkingSetSize is at offset 16. */
export const PROCESS_MEMORY_COUNTERS_SIZE = 72
const PMC_WORKING_SET = 16

export interface ProcessEntry {
  readonly pid: number
  readonly parentPid: number
  /** szExeFile: the image name, e.g. "chrome.exe". */
  readonly exeFile: string
}

/** Decodes one PROCESSENTRY32W filled by Process32FirstW/NextW; null when the buffer is too short. */
export function parseProcessEntry32W(buf: Buffer): ProcessEntry | null {
  if (buf.length < PROCESSENTRY32W_SIZE) return null
  const raw = buf.subarray(PE_EXE_FILE, PE_EXE_FILE + MAX_PATH * 2)
  let end = 0
  while (end + 1 < raw.length && (raw[end] !== 0 || raw[end + 1] !== 0)) end += 2
  return { pid: buf.readUInt32LE(PE_PID), parentPid: buf.readUInt32LE(PE_PARENT_PID), exeFile: raw.toString('utf16le', 0, end) }
}

/** A PROCESSENTRY32W buffer with dwSize set, as Process32FirstW requires. */
export function newProcessEntryBuffer(): Buffer {
  const buf = Buffer.alloc(PROCESSENTRY32W_SIZE)
  buf.writeUInt32LE(PROCESSENTRY32W_SIZE, 0)
  return buf
}

/** A FILETIME duration (100 ns units, as GetProcessTimes returns kernel and user time) in ms. */
export function filetimeToMs(value: bigint | number): number {
  return Number(BigInt(value)) / 10_000
}

/** WorkingSetSize from PROCESS_MEMORY_COUNTERS, in KiB; null when the buffer is too short. */
export function parseWorkingSetKiB(buf: Buffer): number | null {
  if (buf.length < PROCESS_MEMORY_COUNTERS_SIZE) return null
  return Number(buf.readBigUInt64LE(PMC_WORKING_SET) / 1024n)
}
