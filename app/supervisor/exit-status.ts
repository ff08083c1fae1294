import type { Diagnosis } from './diagnosis'

/** Windows NTSTATUS exit codes that say why a process never ran or died, as Node reports them (unsigned). */
const NTSTATUS: Readonly<Record<number, Diagnosis>> = {
  0xc0000135: {
    kind: 'load-failed',
    reason: 'llama-server could not start: a DLL it needs is missing (STATUS_DLL_NOT_FOUND)',
    hint:
      'a CUDA build needs its runtime DLLs (cudart64_*.dll, cublas64_*.dll) beside llama-server.exe: unpack the matching cudart zip from ' +
      'the same release there, or use a CPU build',
    deterministic: true,
  },
  0xc0000142: {
    kind: 'load-failed',
    reason: 'llama-server could not start: a DLL failed to initialise (STATUS_DLL_INIT_FAILED)',
    hint:
      'often a CUDA runtime that does not match the driver, or a DLL blocked by Smart App Control or an antivirus: update the NVIDIA ' +
      'driver, or use the release built for your CUDA version',
    deterministic: true,
    // Also a start that failed for a moment: one start of llama-server.exe under Wine on a loaded
    // 2-core machine failed so and the next passed. A DLL that cannot initialise fails twice.
    retryOnce: true,
  },
  0xc0000428: {
    kind: 'load-failed',
    reason: 'Windows blocked llama-server or one of its DLLs: untrusted signature (STATUS_INVALID_IMAGE_HASH)',
    hint:
      'Smart App Control or an Application Control policy blocks unsigned files (it silently blocked a chat client’s unsigned DLL on a ' +
      'Windows 11 laptop): run llama-server from WSL2, use a signed build, or turn Smart App Control off in Windows Security → App & ' +
      'browser control',
    deterministic: true,
  },
  0xc000001d: {
    kind: 'load-failed',
    reason: 'llama-server used a CPU instruction this processor does not have (STATUS_ILLEGAL_INSTRUCTION)',
    hint:
      'this build targets a newer CPU (AVX-512 or AVX2): use a build for your processor (an "avx2" or generic release), or build with ' +
      'GGML_NATIVE=ON on this machine',
    deterministic: true,
  },
  0xc0000409: {
    kind: 'assertion',
    reason: 'llama-server aborted (STATUS_STACK_BUFFER_OVERRUN: abort() or a failed internal check on Windows)',
    hint: 'see the last log lines; try without the last flag you changed',
    deterministic: false,
  },
  0xc0000005: {
    kind: 'crashed',
    reason: 'llama-server crashed with an access violation (0xC0000005)',
    hint: 'see the last log lines; a crash right at load often means a model this build does not support',
    deterministic: false,
  },
}

/**
 * What an exit status alone says, when the log said nothing: Windows NTSTATUS
 * codes (Node gives them unsigned, or negative as int32) and SIGILL elsewhere.
 * Null when the status is an ordinary exit code.
 */
export function diagnoseExitStatus(code: number | null, signal: string | null): Diagnosis | null {
  const illegal = NTSTATUS[0xc000001d]
  if (signal === 'SIGILL' && illegal)
    return { ...illegal, reason: 'llama-server used a CPU instruction this processor does not have (SIGILL)' }
  if (code === null) return null
  const unsigned = code < 0 ? code >>> 0 : code
  const known = NTSTATUS[unsigned]
  return known ? { ...known } : null
}

/** What to do when the binary could not be spawned at all, by the error code Node gives. */
export function spawnFailureHint(code: string | undefined, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32' && (code === 'UNKNOWN' || code === 'EPERM' || code === 'EACCES')) {
    return (
      'Windows refused to start it: Smart App Control, an Application Control policy or an antivirus may block unsigned programs ' +
      '(Windows Security → App & browser control, or the antivirus quarantine); run it from WSL2 or use a signed build'
    )
  }
  if (code === 'EACCES') return 'make the binary executable (chmod +x)'
  if (code === 'ENOENT') return 'check the binary path'
  return 'check the binary path and that it is a program for this system'
}
