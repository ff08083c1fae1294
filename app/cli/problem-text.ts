import type { Problem } from '../contract/problem'

/**
 * A problem as the CLI prints it on stderr: "llama-tray: <sentence>", the fix's command when there is one,
 * and the raw details (indented) only with --verbose.
 */
export function problemText(problem: Problem, verbose: boolean): string {
  const fix = problem.fix?.cli ? `llama-tray: To fix it: ${problem.fix.cli}\n` : ''
  const details = verbose && problem.details ? `${problem.details.replace(/^/gm, '  ')}\n` : ''
  return `llama-tray: ${problem.sentence}\n${fix}${details}`
}
