import { normaliseLogLine } from './log-line'
import type { RequestTimings } from '../contract/generation'

/**
 * Incremental parser for llama-server's per-request timing lines
 * (captured in test/fixtures/llama-server*). Layouts understood:
 *
 * - mainline v0.5.0: one line per field, each prefixed
 *   `slot print_timing: id N | task M | ` (`prompt eval time`, `eval time`,
 *   `total time`, `graphs reused`, `draft acceptance = X (A accepted / G generated)`);
 *   plus the live `n_gen = …, tg = … t/s` and `prompt processing, n_tokens = …, progress = …` lines.
 * - older mainline, buun and ik: a header `slot print_timing: id N | task M | `
 *   followed by bare `prompt eval time = …`, `eval time = …`, `total time = …`
 *   and `draft acceptance rate = …` lines; `prompt processing progress, … progress = …`.
 *
 * Memory is bounded (one pending record); feed() never throws.
 */

/** A finished request as the log states it (the tracker stamps it with a time to make RequestTimings). */
export type RequestRecord = Omit<RequestTimings, 'time'>

export type TimingEvent =
  | { readonly kind: 'request'; readonly record: RequestRecord }
  | { readonly kind: 'task-start'; readonly slotId: number; readonly taskId: number }
  | { readonly kind: 'task-end'; readonly slotId: number; readonly taskId: number; readonly contextTokens: number }
  | {
      readonly kind: 'live'
      readonly slotId: number
      readonly taskId: number
      readonly generated: number
      readonly tokensPerSecond: number
      readonly tokensPerSecond3s: number
    }
  | {
      readonly kind: 'prompt-progress'
      readonly slotId: number
      readonly taskId: number
      readonly processed: number
      readonly progress: number
      readonly tokensPerSecond: number | null
    }

interface Phase {
  readonly ms: number
  readonly tokens: number
  readonly perSecond: number
}

interface Pending {
  slotId: number | null
  taskId: number | null
  prompt: Phase | null
  evalPhase: Phase | null
  draft: { accepted: number; generated: number; rate: number } | null
  /** Unrelated lines seen since the pending record began. */
  foreign: number
  startedAt: number
}

const SLOT_PREFIX = /^slot\s+([^:]{1,24}): id\s+(-?\d+) \| task (-?\d+) \|\s?(.*)$/
const NUM = '([-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?|[-+]?(?:inf|nan|infinity))'
const PHASE_TAIL = `=\\s*${NUM} ms /\\s*(\\d+) tokens \\(\\s*${NUM} ms per token,\\s*${NUM} tokens per second\\)`
const PROMPT_EVAL = new RegExp(`^\\s*prompt eval time ${PHASE_TAIL}`, 'i')
const EVAL = new RegExp(`^\\s*eval time ${PHASE_TAIL}`, 'i')
const TOTAL = new RegExp(`^\\s*total time =\\s*${NUM} ms /\\s*(\\d+) tokens`, 'i')
const GRAPHS = /^\s*graphs reused =/
const DRAFT = new RegExp(`^\\s*draft acceptance(?: rate)? =\\s*${NUM} \\(\\s*(\\d+) accepted /\\s*(\\d+) generated\\)`, 'i')
const ACC_PER_POS = /^\s*acc per pos =/
const LIVE = new RegExp(`^\\s*n_gen =\\s*(\\d+), tg =\\s*${NUM} t/s, tg_3s =\\s*${NUM} t/s`, 'i')
const PROMPT_PROGRESS_V050 = new RegExp(
  `^\\s*prompt processing, n_tokens =\\s*(\\d+), progress =\\s*${NUM}(?:, t =\\s*${NUM} s /\\s*${NUM} tokens per second)?`,
  'i',
)
const PROMPT_PROGRESS_OLD = new RegExp(
  `prompt processing progress, n_tokens =\\s*(\\d+), batch\\.n_tokens =\\s*(\\d+), progress =\\s*${NUM}`,
  'i',
)
const STOP_PROCESSING = /stop processing: n_tokens =\s*(\d+)/

/** Non-finite values (`-nan`, `inf` when a phase had 0 tokens or 0 ms) read as 0. */
function num(text: string | undefined): number {
  const v = Number(text)
  return Number.isFinite(v) ? v : 0
}

function int(text: string | undefined): number {
  const v = Number.parseInt(text ?? '', 10)
  return Number.isFinite(v) ? v : 0
}

function phase(m: RegExpExecArray): Phase {
  return { ms: num(m[1]), tokens: int(m[2]), perSecond: num(m[4]) }
}

/** Lines after the eval line that may still belong to the record before we give up waiting. */
const FOREIGN_AFTER_EVAL = 3
/** Lines tolerated between a multi-line header and its fields (ik interleaves stdout). */
const FOREIGN_BEFORE_EVAL = 16
const NONE: readonly TimingEvent[] = Object.freeze([])

export class TimingLogParser {
  private pending: Pending | null = null
  private readonly now: () => number

  constructor(options: { readonly now?: () => number } = {}) {
    this.now = options.now ?? Date.now
  }

  /** Feeds one raw log line (as the supervisor emits it); returns what it completed. */
  feed(raw: string): readonly TimingEvent[] {
    try {
      const lines = normaliseLogLine(raw)
      if (lines.length === 1) return this.line(lines[0] as string)
      const out: TimingEvent[] = []
      for (const l of lines) out.push(...this.line(l))
      return out
    } catch {
      // A parser bug must never reach the supervisor's log pipe: forget the partial record.
      this.pending = null
      return NONE
    }
  }

  /** Completes the pending record, if it has its prompt and eval lines. */
  flush(): readonly TimingEvent[] {
    const out: TimingEvent[] = []
    this.finish(out)
    return out
  }

  /**
   * Completes a pending record that has waited `maxAgeMs` for a trailing line
   * (e.g. a draft-acceptance line that never comes).
   */
  flushStale(maxAgeMs: number): readonly TimingEvent[] {
    const p = this.pending
    if (!p || !p.evalPhase || this.now() - p.startedAt < maxAgeMs) return NONE
    return this.flush()
  }

  /** True while a record has started but is not complete yet. */
  get hasPending(): boolean {
    return this.pending !== null
  }

  private line(line: string): readonly TimingEvent[] {
    const prefixed = SLOT_PREFIX.exec(line)
    if (prefixed) {
      const func = (prefixed[1] as string).trim()
      const slotId = int(prefixed[2])
      const taskId = int(prefixed[3])
      const rest = prefixed[4] as string
      if (func === 'print_timing') return this.timingField(rest, slotId, taskId, true)
      if (func === 'release') {
        const stop = STOP_PROCESSING.exec(rest)
        const end: TimingEvent[] = stop ? [{ kind: 'task-end', slotId, taskId, contextTokens: int(stop[1]) }] : []
        if (!this.pending || (this.pending.slotId !== null && this.pending.slotId !== slotId)) return this.withForeign(end)
        const out: TimingEvent[] = []
        this.finish(out)
        return out.concat(end)
      }
      if (func === 'launch_slot_' && rest.startsWith('processing task')) {
        return this.withForeign([{ kind: 'task-start', slotId, taskId }])
      }
      const old = PROMPT_PROGRESS_OLD.exec(rest)
      if (old)
        return this.withForeign([
          { kind: 'prompt-progress', slotId, taskId, processed: int(old[1]), progress: num(old[3]), tokensPerSecond: null },
        ])
      return this.withForeign(NONE)
    }
    return this.timingField(line, this.pending?.slotId ?? null, this.pending?.taskId ?? null, false)
  }

  /** A timing field, from a prefixed v0.5.0 line or a bare line of the multi-line block. */
  private timingField(text: string, slotId: number | null, taskId: number | null, prefixed: boolean): readonly TimingEvent[] {
    const p = this.pending
    const samePending = p !== null && (!prefixed || (p.slotId === slotId && p.taskId === taskId))

    let m: RegExpExecArray | null
    if ((m = PROMPT_EVAL.exec(text))) {
      const out: TimingEvent[] = []
      // A header we saw for this very request keeps its ids; anything else starts afresh.
      const keep = p !== null && p.prompt === null && p.evalPhase === null && (!prefixed || samePending)
      if (!keep) this.finish(out)
      this.pending = { ...(keep && p ? p : this.fresh(slotId, taskId)), prompt: phase(m), foreign: 0 }
      return out
    }
    if ((m = EVAL.exec(text))) {
      if (!p || !samePending || p.prompt === null || p.evalPhase !== null) return this.withForeign(NONE)
      p.evalPhase = phase(m)
      p.foreign = 0
      return NONE
    }
    if (TOTAL.test(text) || GRAPHS.test(text) || ACC_PER_POS.test(text)) {
      if (p && samePending) return NONE
      return this.withForeign(NONE)
    }
    if ((m = DRAFT.exec(text))) {
      if (!p || !samePending || p.evalPhase === null) return this.withForeign(NONE)
      p.draft = { rate: num(m[1]), accepted: int(m[2]), generated: int(m[3]) }
      const out: TimingEvent[] = []
      this.finish(out) // the draft line is the last field in every layout
      return out
    }
    if (prefixed && slotId !== null && taskId !== null) {
      if ((m = LIVE.exec(text))) {
        return this.withForeign([
          { kind: 'live', slotId, taskId, generated: int(m[1]), tokensPerSecond: num(m[2]), tokensPerSecond3s: num(m[3]) },
        ])
      }
      if ((m = PROMPT_PROGRESS_V050.exec(text))) {
        const tps = m[4] !== undefined ? num(m[4]) : null
        return this.withForeign([
          { kind: 'prompt-progress', slotId, taskId, processed: int(m[1]), progress: num(m[2]), tokensPerSecond: tps },
        ])
      }
      if (text.trim() === '') {
        // Header of the multi-line layout.
        const out: TimingEvent[] = []
        this.finish(out)
        this.pending = this.fresh(slotId, taskId)
        return out
      }
    }
    return this.withForeign(NONE)
  }

  private fresh(slotId: number | null, taskId: number | null): Pending {
    return { slotId, taskId, prompt: null, evalPhase: null, draft: null, foreign: 0, startedAt: this.now() }
  }

  /** Counts an unrelated line against the pending record and completes or drops it when it has waited long enough. */
  private withForeign(events: readonly TimingEvent[]): readonly TimingEvent[] {
    const p = this.pending
    if (!p) return events
    p.foreign++
    if (p.evalPhase !== null && p.foreign >= FOREIGN_AFTER_EVAL) {
      const out: TimingEvent[] = []
      this.finish(out)
      return out.concat(events)
    }
    if (p.evalPhase === null && p.foreign > FOREIGN_BEFORE_EVAL) this.pending = null
    return events
  }

  private finish(out: TimingEvent[]): void {
    const p = this.pending
    this.pending = null
    if (!p || !p.prompt || !p.evalPhase) return
    out.push({
      kind: 'request',
      record: {
        slotId: p.slotId,
        taskId: p.taskId,
        promptTokens: p.prompt.tokens,
        promptMs: p.prompt.ms,
        promptTokensPerSecond: p.prompt.perSecond,
        predictedTokens: p.evalPhase.tokens,
        predictedMs: p.evalPhase.ms,
        predictedTokensPerSecond: p.evalPhase.perSecond,
        draftTokens: p.draft ? p.draft.generated : null,
        draftAccepted: p.draft ? p.draft.accepted : null,
        draftAcceptance: p.draft ? p.draft.rate : null,
      },
    })
  }
}
