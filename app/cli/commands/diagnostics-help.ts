import type { CommandHelp } from '../command'

/** What the usage text says of `diagnostics`; the command's own module loads only when it runs (see ./index.ts). */
export const DIAGNOSTICS_HELP: CommandHelp = {
  name: 'diagnostics',
  summary: "versions, GPU, profiles, settings, engines and the log's end, redacted, to hand to someone helping you",
  usage: `  llama-tray diagnostics [--out FILE.zip] [--json]
    Without options: a one-screen summary (at most 40 lines) to paste into an issue.
    --out FILE.zip      write summary.txt, diagnostics.json and llama-server.log (its last 256 KiB) into a zip, and
                        llama-server-<id>.log of each pinned profile (its last 64 KiB)
    --json              print the whole report as JSON
  API keys (--api-key, key files, LLAMA_API_KEY), Hugging Face and GitHub tokens and your user name are redacted.`,
}
