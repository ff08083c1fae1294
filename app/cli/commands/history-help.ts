import type { CommandHelp } from '../command'

/** What the usage text says of `history`; the command's own module loads only when it runs (see ./index.ts). */
export const HISTORY_HELP: CommandHelp = {
  name: 'history',
  summary: 'every request and token count kept in the usage history, per request, day or profile, and its export',
  usage: `  llama-tray history [--by request|day|profile] [--profile P] [--since DATE] [--json]
    --by request        one line per request (the default; the last 50, --json: all)
    --by day            tokens and speed per day and profile (older requests are kept as their day)
    --by profile        tokens and speed per profile
    --profile P         only profile P (its id)
    --since DATE        from DATE on: YYYY-MM-DD (local time), an ISO time, or Nd for the last N days
    --json              the rows as JSON, with promptTokens, cachedTokens, generatedTokens, draftTokens, ...
  llama-tray history export --format csv|json|md --out FILE [--profile P] [--since DATE]
    writes every request (one row each, a header first) to FILE`,
}
