/**
 * The editor shows raw extra arguments one per line: no quoting rules to get
 * wrong, and an argument with spaces (a Windows path) stays one argument.
 */
export function argsToText(args: readonly string[]): string {
  return args.join('\n')
}

export function textToArgs(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
}
