import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LLAMA_FIT_RECORDINGS } from '../../test/helpers/paths'
import { sleepLogEvent, type SleepLogEvent } from './sleep-log'

// Recorded on an H200 (llama.cpp v0.5.0 with CUDA): Qwen3.6-35B-A3B's tensor table with the seed's placement
// (--n-cpu-moe 34, -c 65536 q4_0) and --sleep-idle-seconds 2; nvidia-smi's per-process memory each second.
const DIR = LLAMA_FIT_RECORDINGS
const log = readFileSync(join(DIR, 'sleep.log'), 'utf8')
const trace = readFileSync(join(DIR, 'sleep.txt'), 'utf8')
const num = (re: RegExp): number => Number(re.exec(trace)?.[1] ?? NaN)

describe('sleep and wake on CUDA (H200 recording)', () => {
  it('the CUDA build logs the same sleep lines, each twice: the state changes are enter, exit, enter, exit', () => {
    const changes: SleepLogEvent[] = []
    for (const line of log.split('\n')) {
      const e = sleepLogEvent(line)
      if (e !== null && changes[changes.length - 1] !== e) changes.push(e)
    }
    expect(changes).toEqual(['entering', 'exiting', 'entering', 'exiting'])
  })

  it('sleeping frees the model’s VRAM and keeps only the CUDA context; the next request reloads it', () => {
    const awake = num(/request \(awake\) [\d.]+s, proc (\d+) MiB/)
    const asleep = num(/proc before wake (\d+) MiB/)
    expect(awake).toBe(5878)
    expect(asleep).toBe(592)
    expect(num(/request \(waking\) [\d.]+s, exits=\d+, proc (\d+) MiB/)).toBe(awake)
    // Waking costs a reload: the waking request took longer than one made while awake.
    expect(num(/request \(waking\) ([\d.]+)s/)).toBeGreaterThan(num(/request \(awake\) ([\d.]+)s/))
  })

  it('what the app may call while the server sleeps: /health, /props and /v1/models do not wake it, /slots does', () => {
    for (const path of ['health', 'props', 'metrics', 'models']) expect(trace).toMatch(new RegExp(`^${path}: \\d+ exits=0$`, 'm'))
    expect(trace).toMatch(/^slots: 200 exits=4$/m)
  })
})
