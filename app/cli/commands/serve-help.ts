import { MIN_API_KEY_LENGTH } from '../../supervisor/api-key-rules'
import type { CommandHelp } from '../command'

/** What the usage text says of `serve`; the command's own module loads only when it runs (see ./index.ts). */
export const SERVE_HELP: CommandHelp = {
  name: 'serve',
  summary: 'one OpenAI-compatible endpoint that stays put: a request\'s "model" switches profiles',
  usage: `  llama-tray serve [<profile>] [--port P] [--host H] [--api-key-file FILE] [--json] [--ready-timeout S]
    <profile>             start this profile at once (else the first request's "model" starts one)
    --port P              the endpoint's port (default: the port setting, 8080); llama-server gets a private loopback port
    --host H              default 127.0.0.1; another host needs --api-key-file (the key is checked at the endpoint)
    --api-key-file FILE   the key clients must send (Authorization: Bearer …): the file's first line that is not blank
                          or a # comment, at least ${MIN_API_KEY_LENGTH} characters
    --json                one JSON line per event: listening, state, request (with its figures)
    --ready-timeout S     give up on a start after S seconds (default 120)`,
}
