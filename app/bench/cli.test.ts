import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { UsageError } from '../cli/cli-error'
import { benchCommand, parseBenchArgs } from '../cli/commands/bench'
import { compareCommand, parseCompareArgs } from '../cli/commands/compare'
import { parseTuneArgs } from '../cli/commands/tune'
import { llamaServerBin } from '../../test/helpers/llama-server-bin'
import { addProfile, llamaServerChildren, SMALL, tinyTarget } from '../../test/support/core/tiny-core'
import { cliIo } from '../../test/helpers/cli-io'

const home = mkdtempSync(path.join(tmpdir(), 'llama-tray-bench-cli-'))
afterAll(() => rmSync(home, { recursive: true, force: true }))

function io(): { ctx: ReturnType<typeof cliIo>; out: () => string; err: () => string } {
  const ctx = cliIo(home)
  return { ctx, out: ctx.out, err: ctx.err }
}

describe('bench, compare and tune options', () => {
  it('parses the documented options', () => {
    expect(parseBenchArgs(['tiny', '--runs', '5', '--tokens', '64', '--json'])).toEqual({
      profile: 'tiny',
      runs: 5,
      tokens: 64,
      format: 'json',
    })
    expect(parseCompareArgs(['a', 'b', 'c', '--markdown'])).toMatchObject({
      profiles: ['a', 'b', 'c'],
      runs: 3,
      rounds: 2,
      format: 'markdown',
    })
    expect(parseTuneArgs(['tiny', '--save', 'fast one', '--headroom-mib', '2048'])).toMatchObject({
      profile: 'tiny',
      saveAs: 'fast one',
      headroomMiB: 2048,
      radius: 2,
    })
  })

  it.each([
    [() => parseBenchArgs([]), /exactly one profile/],
    [() => parseBenchArgs(['a', '--runs', '0']), /whole number/],
    [() => parseBenchArgs(['a', '--tokens', 'many']), /whole number/],
    [() => parseCompareArgs(['a']), /at least two/],
    [() => parseCompareArgs(['a', 'b', '--csv', '--json']), /one output format/],
    [() => parseTuneArgs(['a', '--save', ' ']), /needs a profile name/],
    [() => parseTuneArgs(['a', '--headroom-mib=-1']), /≥ 0/],
  ])('refuses bad input with a usage error (%#)', (parse, message) => {
    expect(parse).toThrow(UsageError)
    expect(parse).toThrow(message)
  })

  it('an unknown profile is a usage error, before anything starts', async () => {
    const { ctx } = io()
    await expect(benchCommand.run(['nope', '--json'], ctx)).rejects.toThrow(/No profile "nope"/)
  })
})

describe('llama-tray bench / compare on the real tiny server', () => {
  it('bench --json prints the documented shape', async () => {
    const id = await addProfile(home, 'cli tiny', [llamaServerBin(), '-m', tinyTarget, ...SMALL])
    const { ctx, out } = io()
    expect(await benchCommand.run([id, '--runs', '1', '--tokens', '16', '--json'], ctx)).toBe(0)
    const json = JSON.parse(out()) as { results: { profileId: string; runs: Record<string, unknown>[]; median: Record<string, unknown> }[] }
    const r = json.results[0]
    expect(r?.profileId).toBe(id)
    expect(r?.runs).toHaveLength(2)
    for (const run of r?.runs ?? []) {
      expect(Object.keys(run)).toEqual(
        expect.arrayContaining(['prompt', 'promptTokensPerSecond', 'tokensPerSecond', 'draftAcceptance', 'minFreeVramMiB', 'disturbed']),
      )
      expect(run.tokensPerSecond).toBeGreaterThan(0)
    }
    expect(Object.keys(r?.median ?? {})).toEqual(expect.arrayContaining(['promptTokensPerSecond', 'tokensPerSecond', 'draftAcceptance']))
    expect(llamaServerChildren()).toEqual([])
  }, 300_000)

  it("reads the home's heavy-apps.json through the one factory, as the app does: a bad file is reported, the bench still runs", async () => {
    const own = mkdtempSync(path.join(tmpdir(), 'llama-tray-bench-heavy-'))
    try {
      writeFileSync(path.join(own, 'heavy-apps.json'), '{"apps": [{"name": "Discord"}]}')
      const id = await addProfile(own, 'cli tiny heavy', [llamaServerBin(), '-m', tinyTarget, ...SMALL])
      const { ctx, err } = io()
      expect(await benchCommand.run([id, '--runs', '1', '--tokens', '16', '--json'], { ...ctx, home: own })).toBe(0)
      expect(
        err()
          .split('\n')
          .filter((l) => l.includes('heavy-apps.json')),
      ).toEqual([expect.stringMatching(/^llama-tray: .*heavy-apps\.json: apps\.0\.processes: .*using the built-in list$/)])
      expect(llamaServerChildren()).toEqual([])
    } finally {
      rmSync(own, { recursive: true, force: true })
    }
  }, 300_000)

  it('Ctrl+C during compare cancels cleanly (exit 130, no process left)', async () => {
    const id = await addProfile(home, 'cli tiny 2', [llamaServerBin(), '-m', tinyTarget, ...SMALL])
    const { ctx, err } = io()
    let sent = false
    ctx.stderr.on('data', () => {
      if (!sent && /warm-up/.test(err())) {
        sent = true
        setImmediate(() => ctx.signals.emit('SIGINT'))
      }
    })
    expect(await compareCommand.run([id, id, '--runs', '1', '--tokens', '16'], ctx)).toBe(130)
    expect(err()).toMatch(/Cancelled/)
    expect(llamaServerChildren()).toEqual([])
  }, 300_000)
})
