import { redactSecretShapes } from './redact'
import type { LaunchSpec } from '../contract/commands'
import { problem } from '../contract/problem'
import type { ExitInfo, FailureKind } from '../contract/server-state'
import { failureSentence, sentences } from '../contract/wording'
import type { FailureFix } from './supervisor-options'
import type { RingBuffer } from '../lib/ring-buffer'
import type { HfDownloadWatch } from './hf-download-watch'
import type { ExitStatus, SpawnedProcess, StopOutcome } from './process-tree'

/** One spawned llama-server and what we know about it. */
export interface Run {
  readonly spec: LaunchSpec
  readonly proc: SpawnedProcess
  readonly host: string
  readonly port: number
  readonly portChosen: boolean
  readonly abort: AbortController
  readonly lines: RingBuffer<string>
  stopRequested: boolean
  /** Awake ms (AwakeClock) when readiness gives up; pushed back by the end of a download and by load progress in the log. */
  deadline: number
  /** Awake ms of the spawn: a resume after it means the machine slept under this process. */
  readonly spawnedAt: number
  /** The `-hf` download watch, while one may be under way. */
  watch: HfDownloadWatch | null
  /** The log said "entering sleeping state" and not yet "exiting" (see sleep-log.ts). */
  asleep: boolean
  /** Lines the server has printed: the watchdog counts new ones as progress. */
  linesSeen: number
  /** Called at each line the server prints (the watchdog's idle pause ends at one). */
  readonly lineListeners: Set<() => void>
  /** The pid file's write, which forget() waits for before removing it. */
  pidFileWritten: Promise<void>
  /** The file the profile's --api-key went to (api-key-file.ts), removed by forget(). */
  readonly keyFile: string | null
  /**
   * llama-server's child channel (child-channel.ts): 'off' when not offered, 'offered' until its first line,
   * 'confirmed' after it (only then does a stop use it and the load show the server's own progress).
   */
  channel: 'off' | 'offered' | 'confirmed'
  /** Set once the run is taken to ready (by /health or by the channel, whichever comes first). */
  readyClaimed: boolean
}

/** Resolves after ms, or at once when the signal aborts (never rejects). */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const t = setTimeout(done, ms)
    function done(): void {
      clearTimeout(t)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}

/** A diagnosis as the supervisor keeps it: the fragments a sentence is made of, and what a fix found for it. */
export interface ExitCause {
  readonly kind: FailureKind
  readonly reason: string
  readonly hint: string | null
  /** The file it is about: in the details, never in the sentence. */
  readonly path?: string
  /** What one click does about it (SupervisorOptions.failureFix), with what was found to make it possible. */
  readonly fix?: FailureFix | null
}

/** How a process ended, with the failure as a Problem when there was one (a requested stop has none). */
export function exitInfo(exit: ExitStatus | null, d: ExitCause | null, lastLines: readonly string[]): ExitInfo {
  const code = exit?.signal ? `signal ${exit.signal}` : exit?.code != null ? `exit code ${exit.code}` : null
  const details = [
    ...(d?.path ? [`File: ${d.path}`] : []),
    ...(code ? [`llama-server ended with ${code}`] : []),
    ...lastLines.map(redactSecretShapes),
  ].join('\n')
  return {
    code: exit?.code ?? null,
    signal: exit?.signal ?? null,
    reason: d?.reason ?? null,
    hint: d?.hint ?? null,
    kind: d?.kind ?? null,
    problem: d ? problem('server', sentences(failureSentence(d.reason, d.hint), d.fix?.found), { details, fix: d.fix?.fix ?? null }) : null,
  }
}

/** " (exit code 0, SIGTERM)" after a stop, for the log; nothing when the exit was not seen. */
export function exitSuffix(outcome: StopOutcome, exit: ExitStatus): string {
  return outcome === 'unconfirmed' ? '' : ` (exit code ${exit.code ?? 'none'}${exit.signal ? `, ${exit.signal}` : ''})`
}
