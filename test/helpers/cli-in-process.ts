import { EventEmitter } from 'node:events'
import { PassThrough } from 'node:stream'
import { cliMain } from '../../app/cli/cli-main'
import { guardTerminalOutput } from '../../app/cli/terminal-text'
import type { CliResult } from './cli'

/**
 * `llama-tray <args>` run in this process through the bin's own entry (cliMain), its output captured the
 * way the bin's is (through the terminal guard): for the tests that check the CLI's words across every
 * command, where a process each would cost most of their time. Each file still launches the built bin
 * for a few cases (runCli in ./cli), so the bin itself stays tested.
 */
export async function runCliInProcess(args: readonly string[]): Promise<CliResult> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  guardTerminalOutput(stdout)
  guardTerminalOutput(stderr)
  let out = ''
  let err = ''
  stdout.setEncoding('utf8').on('data', (c: string) => (out += c))
  stderr.setEncoding('utf8').on('data', (c: string) => (err += c))
  const code = await cliMain(args, { stdout, stderr, signals: new EventEmitter() })
  stdout.end()
  stderr.end()
  await Promise.all([new Promise((r) => stdout.on('end', r)), new Promise((r) => stderr.on('end', r))])
  return { code, signal: null, stdout: out, stderr: err }
}
