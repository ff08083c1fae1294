import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../../test/helpers/paths'
import { failureSentence } from '../contract/wording'
import { diagnoseExit } from './diagnose'
import type { Diagnosis } from './diagnosis'

// Every diagnosis the supervisor can produce, shown as the sentence users read (CLI, tray, dashboard).

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

function everyDiagnosis(): Diagnosis[] {
  const fromLines = RULE_LINES.map((line) => diagnoseExit(1, null, [line]))
  const fromLogs = fixtureLogs().map((lines) => diagnoseExit(1, null, lines))
  const ntstatus = [0xc0000135, 0xc0000142, 0xc0000428, 0xc000001d, 0xc0000409, 0xc0000005].map((code) => diagnoseExit(code, null, []))
  const signals = ['SIGKILL', 'SIGSEGV', 'SIGILL'].map((signal) => diagnoseExit(null, signal, []))
  return [...fromLines, ...fromLogs, ...ntstatus, ...signals, diagnoseExit(3, null, []), diagnoseExit(null, null, [])]
}

describe('every failure the supervisor diagnoses reads as sentences', () => {
  const diagnoses = everyDiagnosis()

  it('covers each kind of rule', () => {
    expect(new Set(diagnoses.map((d) => d.kind)).size).toBeGreaterThanOrEqual(14)
  })

  it.each(diagnoses.map((d) => [failureSentence(d.reason, d.hint)]))('%s', (text) => {
    expect(text).toMatch(/^[A-Z]/)
    expect(text).toMatch(/[.!?]["”')]?$/)
    // A lowercase letter after a full stop and a space is a sentence that forgot its capital.
    expect(text).not.toMatch(/[.!?] [a-z]/)
  })

  it('the two reported ones read right', () => {
    const missing = diagnoseExit(1, null, ["failed to open GGUF file '/m/moving.gguf' (No such file or directory)"])
    expect(failureSentence(missing.reason, missing.hint)).toBe('The model file does not exist: /m/moving.gguf. Check the -m path.')
    const killed = diagnoseExit(null, 'SIGKILL', [])
    expect(failureSentence(killed.reason, killed.hint)).toBe('Llama-server was killed by SIGKILL. See the last log lines.')
  })
})
