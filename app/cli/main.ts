import { resolveHome } from '../home'
import { UsageError } from './cli-error'
import { parseCli } from './parse-cli'
import { runCommand } from './run-command'
import { USAGE } from './usage'

declare const __LLAMA_TRAY_VERSION__: string | undefined

async function main(argv: readonly string[]): Promise<number> {
  const request = parseCli(argv)
  switch (request.command) {
    case 'help':
      process.stdout.write(USAGE)
      return 0
    case 'version':
      process.stdout.write(`${typeof __LLAMA_TRAY_VERSION__ === 'string' ? __LLAMA_TRAY_VERSION__ : 'dev'}\n`)
      return 0
    case 'run':
      return runCommand({ ...request, home: resolveHome(request.home) }, { stdout: process.stdout, stderr: process.stderr })
  }
}

process.stdout.on('error', () => {}) // EPIPE when piped into head: keep supervising, exit cleanly later

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`llama-tray: ${err.message}\n`)
      process.exitCode = 2
    } else {
      process.stderr.write(`llama-tray: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`)
      process.exitCode = 1
    }
  },
)
