/**
 * Parses a pasted command line (bash, cmd or PowerShell flavour, as people copy
 * them from guides) into an argument array, without ever involving a shell.
 *
 * - Whitespace separates arguments; '…' is literal; "…" allows \" for a quote.
 * - A backslash outside quotes escapes only whitespace and quotes, so Windows
 *   paths such as C:\models\a.gguf survive unchanged.
 * - Line continuations are joined: \, ^ or ` at the end of a line.
 * - Shell operators (&&, |, ;, >, …) and variable expansions ($VAR, %VAR%) are
 *   refused with an explanation: we would not run them the way a shell would.
 */
export class CommandLineError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message)
    this.name = 'CommandLineError'
  }
}

const OPERATORS = new Set(['&&', '||', '|', ';', '&', '>', '>>', '<', '2>', '2>&1', '1>', '&>'])
const VARIABLE = /\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\(|%[A-Za-z_][A-Za-z0-9_]*%/

// A continuation character followed by optional spaces and a newline (outside quotes).
const CONTINUATION = /[\\^`][ \t]*\r?\n/y

export function tokenizeCommandLine(input: string): string[] {
  const text = input
  const args: string[] = []
  let current = ''
  let inToken = false
  let quoted = false // the current token had quotes, so it is literal text
  let i = 0
  const pushToken = (): void => {
    if (!inToken) return
    if (!quoted && OPERATORS.has(current)) {
      throw new CommandLineError(`"${current}" is a shell operator: paste a single llama-server command, without pipes, redirections or command chains`, i)
    }
    args.push(current)
    current = ''
    inToken = false
    quoted = false
  }
  const checkVariable = (segment: string, at: number): void => {
    const m = VARIABLE.exec(segment)
    if (m) {
      throw new CommandLineError(`"${m[0]}" is a shell variable or substitution, which is not expanded here: write its value instead`, at + m.index)
    }
  }
  while (i < text.length) {
    const c = text[i] as string
    CONTINUATION.lastIndex = i
    if (CONTINUATION.test(text)) {
      pushToken()
      i = CONTINUATION.lastIndex
    } else if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      pushToken()
      i++
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1)
      if (end === -1) throw new CommandLineError("unterminated ' quote", i)
      current += text.slice(i + 1, end)
      inToken = true
      quoted = true
      i = end + 1
    } else if (c === '"') {
      let j = i + 1
      let value = ''
      for (;;) {
        if (j >= text.length) throw new CommandLineError('unterminated " quote', i)
        const d = text[j]
        if (d === '\\' && text[j + 1] === '"') {
          value += '"'
          j += 2
        } else if (d === '"') {
          break
        } else {
          value += d
          j++
        }
      }
      checkVariable(value, i + 1)
      current += value
      inToken = true
      quoted = true
      i = j + 1
    } else if (c === '\\' && i + 1 < text.length && /[\s'"]/.test(text[i + 1] as string)) {
      current += text[i + 1]
      inToken = true
      i += 2
    } else {
      let j = i
      while (j < text.length && !/[\s'"]/.test(text[j] as string) && !(text[j] === '\\' && /[\s'"]/.test(text[j + 1] ?? 'x'))) {
        CONTINUATION.lastIndex = j
        if (j > i && CONTINUATION.test(text)) break
        j++
      }
      const word = text.slice(i, j)
      checkVariable(word, i)
      current += word
      inToken = true
      i = j
    }
  }
  pushToken()
  return args
}

/** Quotes argv so that tokenizeCommandLine gives it back unchanged (POSIX style). */
export function formatCommandLine(argv: readonly string[]): string {
  return argv.map(quoteArg).join(' ')
}

function quoteArg(arg: string): string {
  if (arg === '') return "''"
  if (/^[A-Za-z0-9_@%+=:,./\\-]+$/.test(arg) && !VARIABLE.test(arg) && !OPERATORS.has(arg) && !/\\$/.test(arg)) return arg
  // Single quotes are fully literal; a single quote itself goes in double quotes.
  return arg
    .split("'")
    .map((part) => (part === '' ? '' : `'${part}'`))
    .join(`"'"`)
}
