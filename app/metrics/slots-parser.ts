/**
 * Reads a GET /slots body from mainline v0.5.0, older mainline/buun and
 * ik_llama.cpp (captured in test/fixtures/llama-server*). Pure; never throws.
 *
 * Shapes: mainline and buun answer an array of slots with `is_processing` and
 * `next_token` as an array of one object; ik uses `state` (0 idle, 1 busy) and
 * `next_token` as a plain object. Idle v0.5.0 slots carry only id/n_ctx.
 */

export interface SlotReading {
  readonly id: number
  readonly taskId: number | null
  readonly processing: boolean
  readonly nDecoded: number | null
  readonly nRemain: number | null
  /** Tokens in the slot (prompt + generated so far), mainline/buun only. */
  readonly nPromptTokens: number | null
  readonly nPromptTokensProcessed: number | null
  readonly nPromptTokensCache: number | null
  readonly nCtx: number | null
}

type Json = Record<string, unknown>

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function int(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : null
}

function nextToken(v: unknown): Json | null {
  if (Array.isArray(v)) return isObject(v[0]) ? v[0] : null
  return isObject(v) ? v : null
}

function processing(slot: Json): boolean | null {
  if (typeof slot.is_processing === 'boolean') return slot.is_processing
  const state = int(slot.state)
  if (state !== null) return state !== 0
  return null
}

/** One slot object, or null when it is not recognisable as a slot. */
export function parseSlot(raw: unknown, index: number): SlotReading | null {
  if (!isObject(raw)) return null
  const busy = processing(raw)
  if (busy === null) return null
  const next = nextToken(raw.next_token)
  const id = int(raw.id) ?? index
  const taskId = int(raw.id_task)
  return {
    id,
    // Idle slots report the last (or -1) task: only a busy slot's task is current.
    taskId: taskId !== null && taskId >= 0 ? taskId : null,
    processing: busy,
    nDecoded: next ? int(next.n_decoded) : null,
    nRemain: next ? int(next.n_remain) : null,
    nPromptTokens: int(raw.n_prompt_tokens),
    nPromptTokensProcessed: int(raw.n_prompt_tokens_processed),
    nPromptTokensCache: int(raw.n_prompt_tokens_cache),
    nCtx: int(raw.n_ctx),
  }
}

/**
 * The slots of a /slots body (already JSON-parsed), or null when the body is
 * not a slot list at all (an error object, garbage).
 */
export function parseSlots(body: unknown): SlotReading[] | null {
  try {
    const list: unknown[] | null = Array.isArray(body) ? body : isObject(body) && Array.isArray(body.slots) ? body.slots : null
    if (list === null) return null
    const out: SlotReading[] = []
    list.forEach((raw, i) => {
      const slot = parseSlot(raw, i)
      if (slot) out.push(slot)
    })
    return out
  } catch {
    return null
  }
}

/** Parses the body text; null for anything that is not JSON holding a slot list. */
export function parseSlotsText(text: string): SlotReading[] | null {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return null
  }
  return parseSlots(body)
}
