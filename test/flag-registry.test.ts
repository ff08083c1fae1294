import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fieldSpellings, flagForSpelling, flagUses } from '../app/contract/flag-args'
import { FLAGS, PROFILE_FIELD_KEYS } from '../app/contract/flag-registry'
import type { ServerFork } from '../app/contract/profile'
import { parseHelpFlags } from '../app/profiles/engine-help'
import { FIXTURES } from './helpers/paths'

// The three engines' real `llama-server --help` output.
const HELP: ReadonlyArray<readonly [ServerFork, string]> = [
  ['mainline', 'llama-server/responses/llama-server-help.txt'],
  ['ik_llama', 'llama-server-forks/ik/help.stdout.txt'],
  ['buun', 'llama-server-forks/buun/help.stdout.txt'],
]

describe('the flag registry', () => {
  describe.each(HELP)('%s --help', (fork, file) => {
    const listed = [...parseHelpFlags(readFileSync(join(FIXTURES, file), 'utf8'))]

    it('every spelling it prints is in the registry, as a flag of this engine', () => {
      expect(listed.length).toBeGreaterThan(200)
      const unknown = listed.filter((s) => flagForSpelling(s, fork) === undefined)
      expect(unknown).toEqual([])
      const notThisEngine = listed.filter((s) => !flagForSpelling(s, fork)?.forks.includes(fork))
      expect(notThisEngine).toEqual([])
    })
  })

  it('names every entry once and every typed profile field at least once', () => {
    const names = FLAGS.map((d) => d.name)
    expect(names.length).toBe(new Set(names).size)
    for (const key of PROFILE_FIELD_KEYS) expect(fieldSpellings(key).length, key).toBeGreaterThan(0)
  })

  it('gives each spelling one meaning, except -dr (mainline --docker-repo, ik_llama --dry-run)', () => {
    const seen = new Map<string, number>()
    for (const d of FLAGS) for (const s of d.spellings) seen.set(s, (seen.get(s) ?? 0) + 1)
    expect([...seen].filter(([, n]) => n > 1).map(([s]) => s)).toEqual(['-dr'])
    expect(flagForSpelling('-dr')?.name).toBe('docker-repo')
    expect(flagForSpelling('-dr', 'ik_llama')?.name).toBe('dry-run')
  })

  it('only optional values list choices, and switches take none', () => {
    for (const d of FLAGS) {
      if (d.choices) expect(d.value, d.name).toBe('optional')
      if (d.value === 'none') expect(d.type, d.name).toBe('bool')
    }
  })
})

describe('the tokenizer', () => {
  it('reads values, joined values, switches and optional values', () => {
    const uses = flagUses([
      '-m',
      'a.gguf',
      '--ctx-size=4096',
      '--no-mmap',
      '-fa',
      '-ngl',
      '99',
      '-fa',
      'off',
      '--spec-draft-model',
      'd.gguf',
      '--temp',
      '-1',
    ])
    expect(uses.map((u) => [u.flag, u.value, u.def?.field ?? u.def?.name])).toEqual([
      ['-m', 'a.gguf', 'model'],
      ['--ctx-size', '4096', 'ctxSize'],
      ['--no-mmap', null, 'noMmap'],
      ['-fa', null, 'flashAttn'],
      ['-ngl', '99', 'gpuLayers'],
      ['-fa', 'off', 'flashAttn'],
      ['--spec-draft-model', 'd.gguf', 'draftModel'],
      ['--temp', '-1', 'temp'],
    ])
  })

  it('an unknown flag takes a following non-flag token as its value', () => {
    expect(flagUses(['--made-up', 'x', '--jinja', 'stray']).map((u) => [u.flag, u.value, u.def?.name])).toEqual([
      ['--made-up', 'x', undefined],
      ['--jinja', null, 'jinja'],
    ])
  })
})
