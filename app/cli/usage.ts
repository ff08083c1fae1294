export const USAGE = `llama-tray: supervise llama.cpp's llama-server from the command line

Usage:
  llama-tray [--home DIR] run --cmd "<llama-server command line>" [options]

Commands:
  run        start llama-server, print live status until stopped (Ctrl+C)

Options for run:
  --cmd TEXT          the llama-server command line, as you would paste it
  --json              print one JSON Snapshot per line per interval
  --interval MS       status interval in milliseconds (default 1000)
  --duration S        stop after S seconds
  --ready-timeout S   give up if the server is not ready after S seconds (default 120)

Global options:
  --home DIR          settings, logs and pid files (default: $LLAMA_TRAY_HOME or the platform config folder)
  -h, --help          show this help
  -v, --version       show the version

Exit codes: 0 stopped cleanly, 1 the server failed (errored or crash loop), 2 bad input.
`
