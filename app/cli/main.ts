import { resolveHome } from '../home'
import { cliMain, splitGlobalOptions } from './cli-main'
import { installLastResort } from './last-resort'
import { guardTerminalOutput } from './terminal-text'

// The `llama-tray` bin: the process's streams and signals around cliMain, which tests also call in-process.
guardTerminalOutput(process.stdout)
guardTerminalOutput(process.stderr)
process.stdout.on('error', () => {}) // EPIPE when piped into head: keep supervising, exit cleanly later
installLastResort(process, process.stderr, () => {
  try {
    return resolveHome(splitGlobalOptions(process.argv.slice(2)).home)
  } catch {
    return null
  }
})

void cliMain(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, signals: process }).then((code) => {
  process.exitCode = code
})
