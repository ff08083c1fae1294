import { replacementFor } from '../contract/flag-args'
import type { Diagnosis } from './diagnosis'
import { diagnoseExitStatus } from './exit-status'

export type { Diagnosis } from './diagnosis'

interface Rule {
  readonly pattern: RegExp
  readonly diagnose: (m: RegExpExecArray) => Diagnosis
}

const strip = (s: string): string => s.replace(/^['"]|['"]$/g, '')
/** A file's name without its folder (Windows or POSIX): sentences name files, the log lines in the details hold the path. */
const fileName = (path: string): string => path.split(/[\\/]/).pop() || path

function flagHint(flag: string): string {
  const replacement = replacementFor(flag)
  return replacement
    ? `use ${replacement}`
    : `remove ${flag} or check it against \`llama-server --help\` of this binary (forks spell some flags differently)`
}

// Order matters: the most specific cause first (an OOM log also says "failed to load model").
const RULES: readonly Rule[] = [
  {
    pattern: /legacy speculative option '([^']+)' is disabled; use (.*)/,
    diagnose: (m) => ({
      kind: 'flag-removed',
      reason: `this llama-server rejects the removed flag ${m[1]}`,
      hint: `${m[2]}`,
      deterministic: true,
    }),
  },
  {
    pattern: /error while handling argument "([^"]+)": the argument has been removed\. ?(.*)/,
    diagnose: (m) => ({
      kind: 'flag-removed',
      reason: `this llama-server rejects the removed flag ${m[1]}`,
      hint: m[2] ? m[2] : flagHint(m[1] as string),
      deterministic: true,
    }),
  },
  {
    pattern: /error: (?:invalid|unknown) argument: (\S+)/,
    diagnose: (m) => {
      const flag = m[1] as string
      const known = replacementFor(flag) !== undefined
      return {
        kind: known ? 'flag-removed' : 'flag-unknown',
        reason: known
          ? `this llama-server does not accept ${flag} (removed or fork-only)`
          : `this llama-server does not know the flag ${flag}`,
        hint: flagHint(flag),
        deterministic: true,
      }
    },
  },
  {
    pattern: /unknown value for (\S+): '([^']*)'/,
    diagnose: (m) => ({
      kind: 'flag-value',
      reason: `the flag ${m[1]} got "${m[2]}", which is not a valid value`,
      hint: m[1] === '--flash-attn' ? 'on this build -fa needs a value: -fa on, -fa off or -fa auto' : `give ${m[1]} a valid value`,
      deterministic: true,
    }),
  },
  {
    pattern: /error while handling argument "([^"]+)": (.*)/,
    diagnose: (m) => ({
      kind: 'flag-value',
      reason: `bad value for ${m[1]}: ${m[2]}`,
      hint: `check the value of ${m[1]} against \`llama-server --help\` of this binary`,
      deterministic: true,
    }),
  },
  {
    pattern: /(?:Invalid cache type|Unsupported cache type): ?(\S+)/,
    diagnose: (m) => ({
      kind: 'flag-value',
      reason: `this build does not support the KV cache type ${m[1]}`,
      hint: 'use f16, q8_0 or q4_0 (turbo* types need buun-llama-cpp, q6_0/q8_KV need ik_llama.cpp)',
      deterministic: true,
    }),
  },
  {
    pattern: /couldn't bind (?:HTTP server socket|to server socket)[,:]? hostname[:=] ?"?([^,\s"]+)"?,? port[:=] ?"?(\d+)/,
    diagnose: (m) => ({
      kind: 'port-in-use',
      reason: `port ${m[2]} on ${m[1]} is already in use`,
      hint: 'stop the other server on that port, or choose another --port (or leave it out and Llama Tray picks a free one)',
      deterministic: true,
    }),
  },
  {
    pattern: /failed to allocate buffer for kv cache|KV cache.*(?:out of memory|failed to allocate)/i,
    diagnose: () => ({
      kind: 'out-of-memory-kv',
      reason: 'out of GPU memory allocating the KV cache',
      hint: 'lower the context (-c), quantise the KV cache (-ctk/-ctv q8_0) or move more experts to the CPU (--n-cpu-moe)',
      deterministic: true,
    }),
  },
  {
    pattern: /failed to allocate compute(?: pp)? buffers|ggml_gallocr_reserve_n\w*: failed to allocate (\S+) buffer/,
    diagnose: () => ({
      kind: 'out-of-memory-compute',
      reason: 'out of GPU memory allocating the compute buffer',
      hint: 'lower the batch sizes (-b/-ub), the context, or move more experts to the CPU (--n-cpu-moe)',
      deterministic: true,
    }),
  },
  {
    pattern: /unable to allocate (\S+) buffer|cudaMalloc failed: out of memory/,
    diagnose: (m) => ({
      kind: 'out-of-memory-weights',
      reason: `out of GPU memory loading the model weights${m[1] ? ` (${m[1]})` : ''}`,
      hint: 'move more experts to the CPU (raise --n-cpu-moe) or offload fewer layers (-ngl)',
      deterministic: true,
    }),
  },
  {
    pattern: /CUDA error: out of memory|ErrorOutOfDeviceMemory|out of memory/i,
    diagnose: () => ({
      kind: 'out-of-memory',
      reason: 'out of GPU memory',
      hint: 'free VRAM (close other GPU apps) or move more experts to the CPU (--n-cpu-moe)',
      deterministic: true,
    }),
  },
  {
    pattern: /failed to open GGUF file '([^']+)' \(No such file or directory\)/,
    diagnose: (m) => ({
      kind: 'model-missing',
      reason: `the model file ${fileName(m[1] as string)} does not exist`,
      hint: 'check the -m path',
      deterministic: true,
    }),
  },
  {
    pattern: new RegExp(
      String.raw`invalid magic characters|failed to read key-value pairs|failed to read tensor info|not` +
        String.raw` within the file bounds|model is corrupted or incomplete|failed to read magic`,
    ),
    diagnose: () => ({
      kind: 'model-corrupt',
      reason: 'the model file is corrupt or incomplete (not a valid GGUF)',
      hint: 'download the model again and compare its size or checksum with the source',
      deterministic: true,
    }),
  },
  {
    pattern: /failed to load draft model,? '?([^']*)'?/,
    diagnose: (m) => ({
      kind: 'draft-rejected',
      reason: `the draft model${m[1] ? ` ${fileName(strip(m[1]))}` : ''} could not be loaded`,
      hint: "check the -md path, and that the draft shares the target model's vocabulary",
      deterministic: true,
    }),
  },
  {
    pattern: /GGML_ASSERT\((.*)\) failed|GGML_ABORT|terminate called after throwing/,
    diagnose: (m) => ({
      kind: 'assertion',
      reason: `llama-server aborted on an internal check${m[1] ? `: ${m[1]}` : ''}`,
      hint:
        'this is a bug or an unsupported combination in this build: try without the last flag you changed (a draft model, a cache type), ' +
        'or another build',
      deterministic: true,
    }),
  },
  {
    // A build without TLS (like our test build) cannot reach huggingface.co for -hf.
    pattern: /HTTPS is not supported/,
    diagnose: () => ({
      kind: 'download-failed',
      reason: 'this llama-server was built without HTTPS support, so -hf cannot download the model',
      hint: 'download it with llama-tray models pull and use -m, or use a llama.cpp release build',
      deterministic: true,
    }),
  },
  {
    pattern: /HTTPLIB failed: (\S+)|failed to resolve commit for (\S+)|download failed after \d+ attempts/,
    diagnose: (m) => ({
      kind: 'download-failed',
      reason: `llama-server could not download the -hf model${m[1] ? ` (${m[1]})` : ''}: no network, or the Hub refused`,
      hint: 'check the connection and the repo name, or download it with llama-tray models pull and use -m',
      deterministic: true,
    }),
  },
  {
    pattern: /ERR \[\s*load_model\] unable to load model|exiting due to model loading error|failed to load model/,
    diagnose: () => ({
      kind: 'load-failed',
      reason: 'llama-server could not load the model',
      hint: 'see the log lines above for the cause',
      deterministic: true,
    }),
  },
]

/**
 * Explains why llama-server exited, from its exit status and last log lines.
 * Scans newest-first within each rule so the last error wins over earlier noise.
 */
export function diagnoseExit(code: number | null, signal: string | null, lines: readonly string[]): Diagnosis {
  for (const rule of RULES) {
    for (let i = lines.length - 1; i >= 0; i--) {
      const m = rule.pattern.exec(lines[i] as string)
      if (m) return rule.diagnose(m)
    }
  }
  const status = diagnoseExitStatus(code, signal)
  if (status) return status
  const how = signal ? `was killed by ${signal}` : `exited with code ${code ?? 'unknown'}`
  return { kind: 'crashed', reason: `llama-server ${how}`, hint: 'see the last log lines', deterministic: false }
}
