/**
 * Flags that some llama-server builds reject, with what to use instead.
 * Facts from ../shared/docs/llama-server.md §3 and §5 (mainline v0.5.0 removed
 * --no-mmap/--mlock and the old --draft-* flags; some flags exist only in forks).
 */
export const FLAG_REPLACEMENTS: Readonly<Record<string, string>> = {
  '--no-mmap': '--load-mode none (-lm none) on mainline builds since about b10884',
  '--mmap': '--load-mode mmap (-lm mmap)',
  '--mlock': '--load-mode mmap+mlock (with --no-mmap: --load-mode mlock)',
  '--draft-max': '--spec-draft-n-max N (mainline) or n_max=N inside --spec-type (ik_llama.cpp)',
  '--draft': '--spec-draft-n-max N',
  '--draft-n': '--spec-draft-n-max N',
  '--draft-min': '--spec-draft-n-min N',
  '--draft-n-min': '--spec-draft-n-min N',
  '--draft-model': '-md FILE (--draft-model never existed)',
  '-vhad': 'nothing: -vhad/--v-cache-hadamard exists only in ik_llama.cpp; run this profile with ik_llama.cpp or drop it',
  '--v-cache-hadamard': 'nothing: it exists only in ik_llama.cpp',
  '-khad': 'nothing: -khad/--k-cache-hadamard exists only in ik_llama.cpp',
  '--k-cache-hadamard': 'nothing: it exists only in ik_llama.cpp',
  '--merge-qkv': 'nothing: --merge-qkv exists only in ik_llama.cpp',
  '-mqkv': 'nothing: -mqkv exists only in ik_llama.cpp',
  '--recurrent-ckpt-mode': 'nothing: it exists only in ik_llama.cpp (as an alias of --spec-ckpt-mode)',
  '--parallel-tool-calls': 'nothing on mainline: send "parallel_tool_calls" in the request instead (the flag exists only in ik_llama.cpp)',
  '-ptcall': 'nothing on mainline: the flag exists only in ik_llama.cpp',
}
