import { loadKoffi } from '../koffi'
import type { ProcessInfo, ProcessSource } from '../process-source'
import { normalizeImageName } from '../process-source'
import {
  PROCESS_MEMORY_COUNTERS_SIZE,
  type ProcessEntry,
  filetimeToMs,
  newProcessEntryBuffer,
  parseProcessEntry32W,
  parseWorkingSetKiB,
} from './toolhelp-parsing'

const TH32CS_SNAPPROCESS = 0x2
const PROCESS_QUERY_LIMITED_INFORMATION = 0x1000
const INVALID_HANDLE_VALUE = -1n

type Fn<A extends unknown[], R> = (...args: A) => R
type Handle = bigint | null
type Out<T> = [T | null]

interface Kernel32 {
  snapshot: Fn<[number, number], Handle>
  first: Fn<[Handle, Buffer], boolean>
  next: Fn<[Handle, Buffer], boolean>
  open: Fn<[number, boolean, number], Handle>
  times: Fn<[Handle, Out<bigint | number>, Out<bigint | number>, Out<bigint | number>, Out<bigint | number>], boolean>
  memory: Fn<[Handle, Buffer, number], boolean>
  close: Fn<[Handle], boolean>
}

function bindKernel32(): Kernel32 | string {
  const koffi = loadKoffi()
  if (typeof koffi === 'string') return koffi
  try {
    const k = koffi.load('kernel32.dll')
    return {
      snapshot: k.func('void * __stdcall CreateToolhelp32Snapshot(uint32_t flags, uint32_t pid)') as Kernel32['snapshot'],
      first: k.func('bool __stdcall Process32FirstW(void *snapshot, _Inout_ uint8_t *entry)') as Kernel32['first'],
      next: k.func('bool __stdcall Process32NextW(void *snapshot, _Inout_ uint8_t *entry)') as Kernel32['next'],
      open: k.func('void * __stdcall OpenProcess(uint32_t access, bool inherit, uint32_t pid)') as Kernel32['open'],
      // FILETIME is two little-endian DWORDs: read as one uint64.
      times: k.func(
        'bool __stdcall GetProcessTimes(void *process, _Out_ uint64_t *creation, _Out_ uint64_t *exit, _Out_ uint64_t *kernel, _Out_ ' +
          'uint64_t *user)',
      ) as Kernel32['times'],
      memory: k.func('bool __stdcall K32GetProcessMemoryInfo(void *process, _Out_ uint8_t *counters, uint32_t size)') as Kernel32['memory'],
      close: k.func('bool __stdcall CloseHandle(void *handle)') as Kernel32['close'],
    }
  } catch (err) {
    return `kernel32 process functions unavailable: ${err instanceof Error ? err.message : String(err)}`
  }
}

/**
 * Windows: Toolhelp snapshot for names and pids, GetProcessTimes and
 * K32GetProcessMemoryInfo per process, all in-process through koffi (no WMIC,
 * no PowerShell). Protected and elevated processes cannot be opened: they are
 * listed with null CPU and memory. Verified only by docs/telemetry-windows-checklist.md.
 */
export class WindowsProcessSource implements ProcessSource {
  private readonly k: Kernel32 | string = bindKernel32()
  private readonly pmc = Buffer.alloc(PROCESS_MEMORY_COUNTERS_SIZE)

  /** Why the source cannot work on this machine; null when it can. */
  get problem(): string | null {
    return typeof this.k === 'string' ? this.k : null
  }

  list(): ProcessInfo[] {
    const k = this.k
    if (typeof k === 'string') return []
    return (this.entries() ?? []).map((e) => this.measure(k, e.pid, e.exeFile))
  }

  /**
   * Every process's pid, parent pid and image name from one Toolhelp snapshot,
   * without opening any process (cheap; the supervisor walks the tree with it).
   * Null when the snapshot cannot be taken.
   */
  entries(): ProcessEntry[] | null {
    const k = this.k
    if (typeof k === 'string') return null
    const snap = k.snapshot(TH32CS_SNAPPROCESS, 0)
    if (snap === null || snap === INVALID_HANDLE_VALUE || snap === 0xffffffffffffffffn) return null
    const out: ProcessEntry[] = []
    try {
      const entry = newProcessEntryBuffer()
      for (let ok = k.first(snap, entry); ok; ok = k.next(snap, entry)) {
        const e = parseProcessEntry32W(entry)
        if (e && e.pid !== 0) out.push(e)
      }
    } finally {
      k.close(snap)
    }
    return out
  }

  /** The process's creation time (a FILETIME, 100 ns since 1601); null when it is gone or cannot be opened. */
  creationTime(pid: number): bigint | null {
    const k = this.k
    if (typeof k === 'string') return null
    const h = k.open(PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
    if (!h) return null
    try {
      const creation: Out<bigint | number> = [null]
      return k.times(h, creation, [null], [null], [null]) && creation[0] !== null ? BigInt(creation[0]) : null
    } finally {
      k.close(h)
    }
  }

  read(pid: number): ProcessInfo | null {
    const k = this.k
    if (typeof k === 'string') return null
    const info = this.measure(k, pid, '')
    return info.cpuMs === null ? null : info
  }

  private measure(k: Kernel32, pid: number, exeFile: string): ProcessInfo {
    const name = normalizeImageName(exeFile)
    const h = k.open(PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
    if (!h) return { pid, name, cpuMs: null, rssKiB: null }
    try {
      const kernel: Out<bigint | number> = [null]
      const user: Out<bigint | number> = [null]
      const cpuMs =
        k.times(h, [null], [null], kernel, user) && kernel[0] !== null && user[0] !== null
          ? filetimeToMs(kernel[0]) + filetimeToMs(user[0])
          : null
      this.pmc.writeUInt32LE(PROCESS_MEMORY_COUNTERS_SIZE, 0)
      const rssKiB = k.memory(h, this.pmc, PROCESS_MEMORY_COUNTERS_SIZE) ? parseWorkingSetKiB(this.pmc) : null
      return { pid, name, cpuMs, rssKiB }
    } finally {
      k.close(h)
    }
  }
}
