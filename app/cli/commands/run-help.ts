import type { CommandHelp } from '../command'

/** What the usage text says of `run`; the command's own module loads only when it runs (see ./index.ts). */
export const RUN_HELP: CommandHelp = {
  name: 'run',
  summary: 'start llama-server and print live status until stopped (Ctrl+C)',
  usage: `  llama-tray run <profile> | --cmd "<llama-server command line>" [--json] [--interval MS] [--duration S] [--ready-timeout S]
    <profile>           a stored profile (id or name; see llama-tray profiles list), checked against its binary first
    --cmd TEXT          the llama-server command line, as you would paste it
    --json              print one JSON Snapshot per line per interval
    --interval MS       status interval in milliseconds (default 1000 with --json or on a terminal; into a file
                        or a pipe only changes are printed, at the idle pace, unless --interval is given)
    --duration S        stop after S seconds
    --ready-timeout S   give up if the server is not ready after S seconds (default 120)`,
}
