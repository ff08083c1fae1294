import type { FailureKind } from '../../../app/contract/server-state'

/**
 * Where each warning and failure gets its one-click fix, or why it has none: a rule or failure kind is in exactly one
 * place here, and app/advisor/fix-coverage.test.ts holds every rule and kind to it (a new one must say which).
 */
export type FixCoverage = { readonly fix: string } | { readonly none: string }

/** Lint rules (rules.ts, fit-rules.ts) whose findings never carry a fix, each with its reason; every other rule's do. */
export const LINT_RULES_WITHOUT_FIX: Readonly<Record<string, string>> = {
  'lint.iquant-cpu-experts': 'the fix is another file of the model (a K-quant): a download the user chooses, which the reason names',
}

/** The live rules (live-rules.ts): where the fix comes from, or why there is none. */
export const LIVE_RULE_FIXES: Readonly<Record<string, FixCoverage>> = {
  'live.vram-low': { fix: 'the fit: more experts on the CPU, else a shorter -c (vram-suggestion.ts)' },
  'live.sysmem-fallback': { fix: 'the fit: more experts on the CPU, else a shorter -c (vram-suggestion.ts)' },
  'live.speed-drop': { fix: 'one thread fewer when a heavy app is the cause; other causes have their own warning and fix' },
  'live.server-failed': { fix: "the failure kind's fix (FAILURE_FIXES below), shown by the header's button" },
  'live.heavy-apps': { none: 'closing another program is the user’s choice: the headline names the busiest, the reason all' },
  'live.prompt-slow': { none: 'no single setting explains a slow prompt: the reason names the likely cause measured now' },
  'live.gpu-throttle': { none: 'cooling and power limits are outside llama-server’s settings: the reason says what to change' },
  'live.gpu-hot': { none: 'cooling is outside llama-server’s settings: the reason says what to change' },
  'live.server-restarting': { none: 'Llama Tray is restarting it already; if it gives up, the failure says what to do' },
}

/** Every way a server can fail (the type makes this list complete): where its fix comes from, or why there is none. */
export const FAILURE_FIXES: Readonly<Record<FailureKind, FixCoverage>> = {
  'model-missing': { fix: 'the file of the same name found elsewhere, else Choose the file… (profiles/missing-file-fix.ts)' },
  'draft-missing': { fix: 'the file of the same name found elsewhere, else Choose the file… (profiles/missing-file-fix.ts)' },
  'flag-unknown': { fix: "the binary's spelling of the flag (lint.flag-rejected; llama-tray profiles fix)" },
  'flag-removed': { fix: "the binary's spelling of the flag (lint.flag-rejected; llama-tray profiles fix)" },
  'flag-value': { fix: "the binary's spelling of the flag, where it has one (lint.flag-rejected)" },
  'exposed-without-key': { fix: 'listen on 127.0.0.1 (lint.exposed-without-key)' },
  // When no placement fits even with every expert on the CPU (fit/no-placement-fits.ts) the sentence has no button:
  // closing another GPU program is the user's choice, and -ngl 0 (the CPU alone) is many times slower.
  'out-of-memory-weights': { fix: 'more experts on the CPU (vram-suggestion.ts), and the automatic safer retry' },
  'out-of-memory-kv': { fix: 'more experts on the CPU (vram-suggestion.ts), and the automatic safer retry' },
  'out-of-memory-compute': { fix: 'more experts on the CPU (vram-suggestion.ts), and the automatic safer retry' },
  'out-of-memory': { fix: 'more experts on the CPU (vram-suggestion.ts), and the automatic safer retry' },
  'binary-missing': { none: 'the way out is installing llama.cpp (Settings → Engines), more than one click: the hint says so' },
  'binary-not-executable': { none: 'changing file permissions is the user’s to do: the hint gives the command' },
  'batch-file': { none: 'the profile must name llama-server itself, which only the user knows: the hint says so' },
  'model-corrupt': { none: 'the file must be downloaded again, from where the user got it: the hint says so' },
  'port-in-use': { none: 'the other program or a new port is the user’s choice: the hint names the free port and the setting' },
  'draft-rejected': { none: 'the draft must be one that matches the model, which the user picks: the hint says so' },
  assertion: { none: 'a bug in llama.cpp: the hint says to update it or report it, with the log behind Details' },
  'load-failed': { none: 'the log says why (behind Details); no one change is known to help' },
  'download-failed': { none: 'the network or the repository: the hint says what to check; Start tries again' },
  'ready-timeout': { none: 'a slow load is not a wrong setting: the hint says to raise the timeout or wait' },
  'spawn-failed': { none: 'the operating system refused to start it: the hint gives its reason' },
  crashed: { none: 'Llama Tray restarts it; after repeated crashes the log behind Details says why' },
  unresponsive: { none: 'the watchdog restarted it already; the log behind Details says what it last did' },
}
