import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCliInProcess } from './helpers/cli-in-process'
import { model } from './helpers/paths'

// `llama-tray run` of a stored profile whose model file is gone: it exits non-zero (nothing was spawned) with one
// sentence naming the file, not its path, and the command that fixes it; `profiles set-model` is that command.

const root = mkdtempSync(join(tmpdir(), 'llama-tray-cli-moved-'))
const home = join(root, 'home')
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('run of a profile whose model is gone', () => {
  it('exits non-zero with the sentence and its fix, and set-model makes the profile launchable again', async () => {
    const old = join(root, 'models', 'old')
    mkdirSync(old, { recursive: true })
    copyFileSync(model('tiny-target.gguf'), join(old, 'moved.gguf'))
    // An executable that is never run stands in for llama-server: preflight refuses the start before a spawn.
    const bin = join(root, 'bin', 'llama-server')
    mkdirSync(join(root, 'bin'))
    writeFileSync(bin, '#!/bin/sh\nexit 1\n', { mode: 0o755 })
    const imported = await runCliInProcess([
      '--home',
      home,
      'profiles',
      'import',
      '--name',
      'moved',
      '--',
      bin,
      '-m',
      join(old, 'moved.gguf'),
    ])
    expect(imported.code, imported.stderr).toBe(0)
    const elsewhere = join(root, 'models', 'new')
    mkdirSync(elsewhere, { recursive: true })
    copyFileSync(join(old, 'moved.gguf'), join(elsewhere, 'moved.gguf'))
    rmSync(join(old, 'moved.gguf'))

    const ran = await runCliInProcess(['--home', home, 'run', 'moved', '--duration', '1'])
    expect(ran.code).not.toBe(0)
    const lines = ran.stderr.trim().split('\n')
    expect(lines[0]).toBe(
      'llama-tray: The model file moved.gguf does not exist. Choose the file again, or check the -m path. Found moved.gguf in new.',
    )
    expect(lines[0]).not.toContain(root)
    expect(lines[1]).toBe(`llama-tray: To fix it: llama-tray profiles set-model moved ${join(elsewhere, 'moved.gguf')}`)
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(160 + root.length)

    const set = await runCliInProcess(['--home', home, 'profiles', 'set-model', 'moved', join(elsewhere, 'moved.gguf')])
    expect(set.code, set.stderr).toBe(0)
    expect(set.stdout).toBe('Profile moved now uses moved.gguf.\n')
    const shown = await runCliInProcess(['--home', home, 'profiles', 'list'])
    expect(shown.stdout).toContain('moved.gguf')
    expect(shown.stdout).not.toContain('(missing)')
  })

  it('set-model refuses a file that is not there', async () => {
    const set = await runCliInProcess(['--home', home, 'profiles', 'set-model', 'moved', join(root, 'nope.gguf')])
    expect(set.code).not.toBe(0)
    expect(set.stderr).toBe('llama-tray: nope.gguf is not a file here: check the path and try again.\n')
  })
})

describe('a setting that fell back to its default', () => {
  it('is said once by run, as the app and `settings` say it', async () => {
    const badHome = join(root, 'bad-settings')
    mkdirSync(badHome, { recursive: true })
    writeFileSync(join(badHome, 'settings.json'), JSON.stringify({ port: 'abc' }))
    const said = (await runCliInProcess(['--home', badHome, 'settings'])).stderr.trim()
    expect(said).toMatch(/port/)
    const ran = await runCliInProcess([
      '--home',
      badHome,
      'run',
      '--cmd',
      `${join(root, 'bin', 'llama-server')} -m ${join(root, 'gone.gguf')}`,
    ])
    expect(ran.code).not.toBe(0)
    expect(ran.stderr.split('\n').filter((l) => l === said)).toHaveLength(1)
  })
})
