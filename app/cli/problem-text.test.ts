import { describe, expect, it } from 'vitest'
import { problem } from '../contract/problem'
import { problemText } from './problem-text'

describe('a problem on the CLI', () => {
  const p = problem('engine', 'GitHub did not answer: check the network, then try again', {
    details: 'getaddrinfo ENOTFOUND api.github.com\nat lookup',
    fix: { label: 'Stop the server', run: { command: 'server:stop' }, cli: 'llama-tray stop' },
  })

  it('prints the sentence and the fix’s command, the details only with --verbose', () => {
    expect(problemText(p, false)).toBe(
      'llama-tray: GitHub did not answer: check the network, then try again.\nllama-tray: To fix it: llama-tray stop\n',
    )
    expect(problemText(p, true)).toBe(
      'llama-tray: GitHub did not answer: check the network, then try again.\nllama-tray: To fix it: llama-tray stop\n' +
        '  getaddrinfo ENOTFOUND api.github.com\n  at lookup\n',
    )
  })
})
