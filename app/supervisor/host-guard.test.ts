import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { FAKE_SERVER } from '../../test/helpers/paths'
import { SupervisorHarness } from '../../test/helpers/supervisor-harness'
import { keyFileKeys, keyProblemSentence, MIN_API_KEY_LENGTH } from './api-key-rules'
import { exposedListenerProblem } from './host-guard'

const dir = mkdtempSync(join(tmpdir(), 'host-guard-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const file = (name: string, text: string, mode = 0o600): string => {
  const path = join(dir, name)
  writeFileSync(path, text)
  chmodSync(path, mode)
  return path
}
const GOOD = 'correct-horse-battery'

describe('the host guard: a listener that leaves loopback needs good keys, not just the flag', () => {
  it.each([
    ['--api-key with an empty key', ['--api-key', ''], {}, /empty key/],
    ['--api-key=', ['--api-key='], {}, /empty key/],
    ['--api-key with only a comma', ['--api-key', ','], {}, /empty key/],
    ['a good key and a trailing comma', ['--api-key', `${GOOD},`], {}, /empty key/],
    ['a key of spaces', ['--api-key', '   '], {}, /only of spaces/],
    ['a short key', ['--api-key', 'abc'], {}, /3 characters/],
    ['--api-key with no value', ['--api-key', '--port', '8080'], {}, /no key follows --api-key/],
    ['a blank LLAMA_API_KEY', [], { LLAMA_API_KEY: '' }, /empty key in LLAMA_API_KEY/],
    ['a good --api-key beside an empty key file', ['--api-key', GOOD, '--api-key-file', file('empty.txt', '')], {}, /no key in/],
    [
      '--api-key-file /dev/null, a device',
      ['--api-key-file', '/dev/null'],
      {},
      /key file --api-key-file \/dev\/null is a device, not a file/,
    ],
    [
      '--api-key-file /dev/zero, a device',
      ['--api-key-file', '/dev/zero'],
      {},
      /key file --api-key-file \/dev\/zero is a device, not a file/,
    ],
    ['a key file of blank and comment lines', ['--api-key-file', file('blank.txt', '\n\n# the key\n\r\n')], {}, /no key in/],
    ['a key file with a line of spaces', ['--api-key-file', file('spaces.txt', `${GOOD}\n   \n`)], {}, /only of spaces/],
    ['a key file with a short key', ['--api-key-file', file('short.txt', 'abc\n')], {}, /3 characters/],
    ['a missing key file', ['--api-key-file', join(dir, 'missing.txt')], {}, /cannot read the key file .*\(ENOENT\)/],
    ['an empty LLAMA_ARG_API_KEY_FILE', [], { LLAMA_ARG_API_KEY_FILE: file('empty-env.txt', '') }, /no key in/],
    ['no key at all', [], {}, /listening on 0.0.0.0 would expose/],
  ])('refuses 0.0.0.0 with %s', async (_name, keyArgs, env, reason) => {
    const problem = await exposedListenerProblem(['-m', 'x.gguf', '--host', '0.0.0.0', ...keyArgs], env)
    expect(problem?.reason).toMatch(reason)
    const sentence = keyProblemSentence(problem as NonNullable<typeof problem>)
    expect(sentence).toMatch(/^[A-Z].*\.$/)
    expect(sentence.split('. ')).toHaveLength(1)
  })

  it.each([
    ['a good key', ['--api-key', GOOD], {}],
    ['two good keys', ['--api-key', `${GOOD},another-good-key`], {}],
    ['a key file with comments and CRLF lines', ['--api-key-file', file('good.txt', `# ours\r\n${GOOD}\r\n\r\n`)], {}],
    ['LLAMA_API_KEY', [], { LLAMA_API_KEY: GOOD }],
  ])('accepts 0.0.0.0 with %s', async (_name, keyArgs, env) => {
    expect(await exposedListenerProblem(['--host', '0.0.0.0', ...keyArgs], env)).toBeNull()
  })

  it('leaves loopback listeners alone, whatever their keys', async () => {
    for (const host of ['127.0.0.1', 'localhost', '::1']) expect(await exposedListenerProblem(['--host', host, '--api-key', ''])).toBeNull()
    expect(await exposedListenerProblem(['--api-key', ''])).toBeNull()
  })

  it(`says the minimum (${MIN_API_KEY_LENGTH} characters) and reads a key file as llama-server does`, async () => {
    expect((await exposedListenerProblem(['--host', '::', '--api-key', '1234567']))?.hint).toContain(`${MIN_API_KEY_LENGTH} characters`)
    expect(await exposedListenerProblem(['--host', '::', '--api-key', '12345678'])).toBeNull()
    expect(keyFileKeys('# c\nkey-one-1\r\n\nkey-two-2\n')).toEqual(['key-one-1', 'key-two-2'])
  })
})

describe('the host guard in the supervisor (the fake server)', () => {
  let harness: SupervisorHarness | null = null
  afterEach(async () => {
    await harness?.dispose()
    harness = null
  })

  it('does not start a server on 0.0.0.0 whose --api-key is blank, and says why in one sentence', async () => {
    harness = new SupervisorHarness()
    const status = await harness.supervisor.start({
      profileId: 'lan',
      exe: FAKE_SERVER,
      args: ['--host', '0.0.0.0', '--port', '0', '--api-key', ','],
    })
    expect(status.state).toBe('errored')
    expect(status.pid).toBeNull()
    expect(harness.statuses.every((s) => s.pid === null)).toBe(true)
    expect(status.lastExit?.kind).toBe('exposed-without-key')
    expect(status.lastExit?.reason).toContain('an empty key in --api-key')
  })
})
