import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { diagnoseExit } from '../../../app/supervisor/diagnose'
import type { Diagnosis } from '../../../app/supervisor/diagnosis'
import { FIXTURES } from '../../helpers/paths'

// Every diagnosis the supervisor can produce: one log line per rule, the real failed-start logs, exit statuses and signals.

/** One log line per rule of diagnose.ts, in llama-server's words. */
const RULE_LINES: readonly string[] = [
  "error: legacy speculative option '--draft-max' is disabled; use --spec-draft-n-max",
  'error while handling argument "--no-mmap": the argument has been removed. use --load-mode none (-lm none)',
  'error while handling argument "--defrag-thold": the argument has been removed.',
  'error: invalid argument: --no-mmap',
  'error: unknown argument: --definitely-not-a-flag',
  "unknown value for --flash-attn: 'maybe'",
  "unknown value for --cache-reuse: 'x'",
  'error while handling argument "-c": stoi',
  'Unsupported cache type: turbo3',
  "couldn't bind HTTP server socket, hostname: 127.0.0.1, port: 42099",
  'llama_kv_cache: failed to allocate buffer for kv cache',
  'ggml_gallocr_reserve_n: failed to allocate CUDA0 buffer of size 123',
  'unable to allocate CUDA0 buffer',
  'CUDA error: out of memory',
  "gguf_init_from_file: failed to open GGUF file '/models/moving.gguf' (No such file or directory)",
  "gguf_init_from_file_impl: invalid magic characters: '<htm', expected 'GGUF'",
  "failed to load draft model, '/models/draft.gguf'",
  'GGML_ASSERT(ggml_can_repeat(b, a)) failed',
  'HTTPS is not supported',
  'HTTPLIB failed: SSL_CONNECT_ERROR',
  'ERR [ load_model] unable to load model',
]

/** The real llama-server (and forks') logs of failed starts in the fixtures. */
function fixtureLogs(): string[][] {
  const dirs = [join(FIXTURES, 'llama-server', 'logs'), ...['ik', 'buun'].map((f) => join(FIXTURES, 'llama-server-forks', f))]
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.startsWith('err_'))
      .map((f) => readFileSync(join(dir, f), 'utf8').split('\n')),
  )
}

export function everyDiagnosis(): Diagnosis[] {
  const fromLines = RULE_LINES.map((line) => diagnoseExit(1, null, [line]))
  const fromLogs = fixtureLogs().map((lines) => diagnoseExit(1, null, lines))
  const ntstatus = [0xc0000135, 0xc0000142, 0xc0000428, 0xc000001d, 0xc0000409, 0xc0000005].map((code) => diagnoseExit(code, null, []))
  const signals = ['SIGKILL', 'SIGSEGV', 'SIGILL'].map((signal) => diagnoseExit(null, signal, []))
  return [...fromLines, ...fromLogs, ...ntstatus, ...signals, diagnoseExit(3, null, []), diagnoseExit(null, null, [])]
}
