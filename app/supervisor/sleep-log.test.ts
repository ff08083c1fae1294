import { describe, expect, it } from 'vitest'
import { sleepIdleSeconds, sleepLogEvent } from './sleep-log'

describe('sleepLogEvent', () => {
  it('recognises the lines the pinned llama-server prints when it sleeps and wakes', () => {
    expect(sleepLogEvent('0.02.438.413 I que    start_loop: entering sleeping state')).toBe('entering')
    expect(sleepLogEvent('0.02.438.627 I srv  handle_sleep: server is entering sleeping state')).toBe('entering')
    expect(sleepLogEvent('0.24.819.610 I que    start_loop: exiting sleeping state')).toBe('exiting')
    expect(sleepLogEvent('0.24.819.624 I srv  handle_sleep: server is exiting sleeping state')).toBe('exiting')
  })

  it('ignores every other line, including the flag in the started-line', () => {
    expect(sleepLogEvent('[llama-tray] started /bin/llama-server -m m.gguf --sleep-idle-seconds 2 (pid 4)')).toBeNull()
    expect(sleepLogEvent('0.00.371.318 I srv  llama_server: model loaded')).toBeNull()
    expect(sleepLogEvent('slot launch_slot_: id  3 | task 1 | processing task, is_child = 0')).toBeNull()
    expect(sleepLogEvent('')).toBeNull()
  })
})

describe('sleepIdleSeconds', () => {
  it('reads a positive --sleep-idle-seconds, in either form', () => {
    expect(sleepIdleSeconds(['-m', 'm.gguf', '--sleep-idle-seconds', '300'])).toBe(300)
    expect(sleepIdleSeconds(['--sleep-idle-seconds=2', '-t', '1'])).toBe(2)
  })

  it('is null when the server never sleeps: absent, -1 (the default), 0 or not a number', () => {
    expect(sleepIdleSeconds(['-m', 'm.gguf'])).toBeNull()
    expect(sleepIdleSeconds(['--sleep-idle-seconds', '-1'])).toBeNull()
    expect(sleepIdleSeconds(['--sleep-idle-seconds', '0'])).toBeNull()
    expect(sleepIdleSeconds(['--sleep-idle-seconds', 'soon'])).toBeNull()
  })
})
