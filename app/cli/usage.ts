import type { CliCommand } from './command'

export function formatUsage(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2
  return `llama-tray: supervise llama.cpp's llama-server from the command line

Usage:
  llama-tray [--home DIR] <command> [options]

Commands:
${commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n')}

${commands.map((c) => `${c.name}:\n${c.usage}`).join('\n\n')}

${GLOBAL}`
}

const GLOBAL = `Global options:
  --home DIR          settings, logs and pid files (default: $LLAMA_TRAY_HOME or the platform config folder)
  -h, --help          show this help
  -v, --version       show the version
  --verbose           after a problem's one sentence, also print its details (a tool's own words, paths looked in)

Exit codes: 0 success, 1 the server failed (errored or crash loop) or the command failed, 2 bad input.
`

/** `llama-tray <command> --help` and `llama-tray help <command>`: that command's usage alone. */
export function formatCommandUsage(command: CliCommand): string {
  return `llama-tray ${command.name}: ${command.summary}

Usage:
${command.usage}

${GLOBAL}`
}

/** Whether the command's own arguments ask for help: -h or --help before a `--` (after it, arguments belong to llama-server). */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--')
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === '-h' || a === '--help')
}
