/** Reading llama-server's log in the dashboard (pure helpers). */

const FAILURE = new RegExp(
  String.raw`\b(error|failed|failure|fatal|abort(ed)?|exception|assert(ion)?|out of memory|unable to` +
    String.raw`|invalid|segmentation fault|terminate)\b|GGML_ASSERT|cudaMalloc failed`,
  'i',
)
/** Mainline's level column: "0.00.004.526 E gguf_init_from_file: …". */
const ERROR_LEVEL = /^\d+\.\d+\.\d+\.\d+ E /
const DEBUG_LEVEL = /^\d+\.\d+\.\d+\.\d+ D /

/** A line worth highlighting: an error, an assertion, an allocation failure. */
export function isFailureLine(line: string): boolean {
  if (DEBUG_LEVEL.test(line)) return false // -lv 5 chatter ("process_new_: terminate") is not a failure
  return ERROR_LEVEL.test(line) || FAILURE.test(line)
}

/** Lines that contain every word of the filter (case-insensitive), optionally failures only. */
export function filterLines(lines: readonly string[], filter: string, failuresOnly: boolean): string[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean)
  return lines.filter((line) => {
    if (failuresOnly && !isFailureLine(line)) return false
    if (words.length === 0) return true
    const lower = line.toLowerCase()
    return words.every((w) => lower.includes(w))
  })
}

const PHASES: readonly [RegExp, string][] = [
  [/server is listening|all slots are idle|model loaded/i, 'finishing'],
  [/warming up/i, 'warming up the model'],
  [/speculative|draft/i, 'loading the draft model'],
  [/llama_kv_cache|kv_self|KV buffer|llama_context|kv cache/i, 'allocating the context (KV cache)'],
  [/load_tensors|offload|model buffer size|CUDA0 model buffer/i, 'loading tensors'],
  [/llama_model_loader|print_info|loading model|gguf/i, 'reading the model file'],
  [/build:|system info|initializing|common_param/i, 'starting llama-server'],
]

/**
 * What a loading llama-server is doing, from its latest log lines (the engine
 * reports no progress figure while it loads): the most recent line that names
 * a phase wins.
 */
export function loadPhase(lines: readonly string[]): string | null {
  for (let i = lines.length - 1; i >= Math.max(0, lines.length - 200); i--) {
    const line = lines[i] as string
    for (const [re, phase] of PHASES) if (re.test(line)) return phase
  }
  return null
}
