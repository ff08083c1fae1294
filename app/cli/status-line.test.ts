import { describe, expect, it } from 'vitest'
import type { ServerStatus } from '../contract/server-state'
import { buildSnapshot } from '../snapshot/build-snapshot'
import type { Warning } from '../contract/warnings'
import { fitToWidth, formatStatusLine } from './status-line'
import { WARNING_LINE_MAX, WarningLines } from './warning-lines'
import { serverStatus } from '../../test/helpers/server-status'

const base = serverStatus('ready', { profileId: 'p', pid: 42, port: 8080, exe: 'llama-server', readySince: 0 })

describe('formatStatusLine', () => {
  it('shows state, pid, address and uptime', () => {
    expect(formatStatusLine(base, null, 65_000)).toBe('READY      pid 42  http://127.0.0.1:8080  up 1m05s')
  })
  it('says when a waiting switch happens, before the figures the row may cut', () => {
    const pendingSwitch = {
      profileId: 'b',
      fromProfileId: 'p',
      runningRequests: 2,
      heldRequests: 1,
      withinS: 60,
      estimateS: 20,
      when: 'After 2 running requests, about 20 s.',
      sentence: 'Profile "b" replaces "p" after 2 running requests, about 20 s; "Switch now" cuts them.',
    }
    const snapshot = { ...buildSnapshot(base, {}), pendingSwitch }
    expect(formatStatusLine(base, snapshot, 65_000)).toBe(
      'READY      pid 42  http://127.0.0.1:8080  up 1m05s  switch to b: after 2 running requests, about 20 s',
    )
  })
  it('shows the countdown and the reason while backing off', () => {
    const line = formatStatusLine(
      serverStatus('backoff', {
        restartAt: 4000,
        restarts: 2,
        lastExit: {
          code: null,
          signal: 'SIGKILL',
          reason: 'llama-server was killed by SIGKILL',
          hint: null,
          kind: 'crashed',
          problem: null,
        },
      }),
      null,
      1000,
    )
    expect(line).toBe('BACKOFF    restart in 3s  restarts 2  : llama-server was killed by SIGKILL')
  })
  it('says what a sleeping server means: calm, with its address, no reason line', () => {
    const line = formatStatusLine({ ...base, state: 'sleeping', sleepIdleSeconds: 2 }, null, 65_000)
    expect(line).toBe(
      'SLEEPING   pid 42  http://127.0.0.1:8080  up 1m05s  model unloaded after 2 s idle, VRAM freed; the next request wakes it',
    )
  })
  it("shows the server's own load progress while it loads, and while a request wakes it", () => {
    const progress = { stage: 'text_model', stages: ['text_model', 'spec_model'], value: 0.4216 }
    expect(formatStatusLine({ ...base, state: 'loading', progress }, null, 0)).toBe(
      'LOADING    pid 42  http://127.0.0.1:8080  Loading text model 42 %',
    )
    const draft = { ...progress, stage: 'spec_model', value: 0.07 }
    expect(formatStatusLine({ ...base, state: 'loading', progress: draft }, null, 0)).toContain('Loading draft model 7 %')
    const waking = formatStatusLine({ ...base, state: 'sleeping', sleepIdleSeconds: 2, waking: progress }, null, 65_000)
    expect(waking).toBe('SLEEPING   pid 42  http://127.0.0.1:8080  up 1m05s  Waking: loading text model 42 %')
  })
  it('prints the address a client on this machine connects to, not a wildcard bind', () => {
    expect(formatStatusLine({ ...base, host: '0.0.0.0' }, null, 0)).toContain('http://127.0.0.1:8080')
    expect(formatStatusLine({ ...base, host: '::' }, null, 0)).toContain('http://[::1]:8080')
    expect(formatStatusLine({ ...base, host: '0.0.0.0' }, null, 0)).not.toContain('0.0.0.0')
  })
})

const warning = (id: string, headline: string, reason = ''): Warning => ({ id, level: 'warn', headline, reason, fix: null })
const LONG_HEADLINE = 'Free VRAM is 310 MiB, under the 1,536 MiB headroom: another program may be using the GPU.'
const LONG_REASON = 'Close it or lower --n-cpu-moe.'

describe('the status line fits one terminal row (issue #25)', () => {
  const crashing: ServerStatus = serverStatus('crashloop', {
    lastExit: { code: 1, signal: null, reason: 'x'.repeat(400), hint: null, kind: 'crashed', problem: null },
  })
  const line = formatStatusLine(crashing, null, 65_000)

  it('leaves warnings out of the line: they are printed on their own lines', () => {
    const snapshot = buildSnapshot(base, { warnings: [warning('live.vram-low@p', LONG_HEADLINE, LONG_REASON)] }, 65_000)
    expect(formatStatusLine(base, snapshot, 65_000)).toBe('READY      pid 42  http://127.0.0.1:8080  up 1m05s')
  })

  it.each([
    [80, 79],
    [40, 39],
    [undefined, 79],
    [0, 79],
  ])('at %s columns a long line is cut to %s characters, ending in an ellipsis', (columns, length) => {
    const fitted = fitToWidth(line, columns)
    expect(Array.from(fitted)).toHaveLength(length)
    expect(fitted.endsWith('…')).toBe(true)
    expect(line.startsWith(fitted.slice(0, -1))).toBe(true)
  })

  it('keeps a line that fits as it is, and never splits a character made of two code units', () => {
    expect(fitToWidth('READY      pid 42', 80)).toBe('READY      pid 42')
    const emoji = '😀'.repeat(100)
    const fitted = fitToWidth(emoji, 40)
    expect(Array.from(fitted)).toHaveLength(39)
    expect(fitted).toBe(`${'😀'.repeat(38)}…`)
  })
})

describe('WarningLines', () => {
  it('prints a warning once when it appears (its headline, then once where its reason is) and once when it clears', () => {
    const lines = new WarningLines()
    const a = warning('live.vram-low@p', LONG_HEADLINE, LONG_REASON)
    const b = warning('live.heavy-apps@p', 'Chrome is using the CPU; close it for faster generation.')
    const c = warning('live.gpu-hot@p', 'The GPU is at 88 °C.', 'It will throttle soon.')
    expect(lines.update([])).toEqual([])
    expect(lines.update([a])).toEqual([
      `! ${LONG_HEADLINE}`,
      '  Why: llama-tray lint <profile> shows each warning with its reason and fix, or run with --verbose.',
    ])
    expect(lines.update([a])).toEqual([])
    expect(lines.update([a, b])).toEqual([`! ${b.headline}`])
    // The hint once per run: a later warning with a reason is its headline alone.
    expect(lines.update([a, b, c])).toEqual([`! ${c.headline}`])
    expect(lines.update([b])).toEqual([`Cleared: ${LONG_HEADLINE}`, `Cleared: ${c.headline}`])
    expect(lines.update([b])).toEqual([])
    expect(lines.update([])).toEqual([`Cleared: ${b.headline}`])
  })

  it('with --verbose prints the reason under the headline; the fix is named by its label', () => {
    const lines = new WarningLines(true)
    const fixed = {
      ...warning('live.vram-low@p', LONG_HEADLINE, LONG_REASON),
      fix: { label: 'Use --n-cpu-moe 38', removeArgs: [], addArgs: [] },
    }
    expect(lines.update([fixed])).toEqual([`! ${LONG_HEADLINE} Fix: Use --n-cpu-moe 38.`, `  ${LONG_REASON}`])
  })

  it("names the fix's cost in tok/s beside its label where it is known", () => {
    const costed = {
      ...warning('live.vram-low@p', 'Free VRAM on GPU 0 is 700 MiB, under the 1536 MiB headroom.'),
      fix: {
        label: 'Move more experts to the CPU (--n-cpu-moe 32)',
        removeArgs: [],
        addArgs: [],
        cost: 'about 0.8 tok/s slower (estimate)',
      },
    }
    expect(new WarningLines().update([costed])).toEqual([
      '! Free VRAM on GPU 0 is 700 MiB, under the 1536 MiB headroom. Fix: Move more experts to the CPU (--n-cpu-moe 32), about 0.8 tok/s slower (estimate).',
    ])
  })

  it('keeps every line at 160 characters or fewer, wrapping at spaces', () => {
    const essay = `${'Setting -ngl 999, --n-cpu-moe 2 picks the GPU offload by hand, so llama.cpp own fit is off; '.repeat(7)}${'x'.repeat(200)}`
    const printed = new WarningLines(true).update([warning('lint.fit-off@p', essay, essay)])
    expect(printed.length).toBeGreaterThan(4)
    for (const line of printed) expect(line.length).toBeLessThanOrEqual(WARNING_LINE_MAX)
    expect(printed.join(' ').replace(/\s+/g, '')).toContain(essay.replace(/\s+/g, ''))
  })
})
