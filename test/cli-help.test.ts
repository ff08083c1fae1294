import { describe, expect, it } from 'vitest'
import { asksForHelp } from '../app/cli/usage'
import { COMMANDS } from '../app/cli/commands'
import { runCli } from './helpers/cli'
import { runCliInProcess } from './helpers/cli-in-process'

// The first command's help goes through the built bin; the others through its entry in-process (the same words, a
// process less each).
const throughTheBin = COMMANDS[0]!.name

// `llama-tray <command> --help` used to fail with "Unknown option '--help'".
describe('llama-tray <command> --help (the built CLI)', () => {
  it.each(COMMANDS.map((c) => c.name))('%s: `<command> --help` and `help <command>` print its usage and exit 0', async (name) => {
    const command = COMMANDS.find((c) => c.name === name)!
    const cli = name === throughTheBin ? runCli : runCliInProcess
    for (const args of [
      [name, '--help'],
      [name, '-h'],
      ['help', name],
    ]) {
      const r = await cli(args)
      expect(r.code, args.join(' ')).toBe(0)
      expect(r.stdout.startsWith(`llama-tray ${name}: ${command.summary}\n`)).toBe(true)
      expect(r.stdout).toContain(command.usage)
      // Only this command's usage, not every command's.
      expect(r.stdout).not.toContain('Commands:')
    }
  })

  it('help for an unknown command says which exist, exit 2', async () => {
    const r = await runCli(['help', 'nope'])
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(`llama-tray: Unknown command "nope" (known: ${COMMANDS.map((c) => c.name).join(', ')}).\n`)
  })

  it('a --help after "--" belongs to llama-server, not to the command', () => {
    expect(asksForHelp(['add', 'p', '--', 'llama-server', '--help'])).toBe(false)
    expect(asksForHelp(['p', '--help', '--', 'llama-server'])).toBe(true)
    expect(asksForHelp(['--cmd', 'llama-server --help'])).toBe(false)
  })
})
