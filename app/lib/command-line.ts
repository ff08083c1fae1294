import { problem, type Problem } from '../contract/problem'

/**
 * Parses a pasted command line (bash, cmd or PowerShell flavour, as people copy
 * them from guides) into an argument array, without ever involving a shell.
 *
 * - Whitespace separates arguments; '…' is literal; "…" allows \" for a quote
 *   (Microsoft C runtime rules: backslashes are literal unless they precede a
 *   quote, so "C:\models\a b.gguf" survives unchanged).
 * - A backslash outside quotes escapes only whitespace and quotes, so Windows
 *   paths such as C:\models\a.gguf survive unchanged.
 * - Line continuations are joined: \, ^ or ` at the end of a line.
 * - PowerShell: a leading call operator `&` is dropped and '' inside '…' is one quote.
 * - Shell operators (&&, |, ;, >, …) and variable expansions ($VAR, %VAR%) are
 *   refused with an explanation: we would not run them the way a shell would.
 * - A line break that is not a continuation starts a second command, which is
 *   refused (blank lines before and after the command are fine); so are NUL
 *   characters (no program argument can hold one) and more than MAX_ARGUMENTS
 *   arguments.
 */
export class CommandLineError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message)
    this.name = 'CommandLineError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('input', this.message, { details: `At character ${this.position + 1}.` })
  }
}

/** Which shell the text was written for. 'auto' accepts all three and refuses both variable syntaxes. */
export type CommandLineDialect = 'auto' | 'posix' | 'cmd' | 'powershell'

export interface TokenizeOptions {
  readonly dialect?: CommandLineDialect
}

/**
 * The most arguments a command may have: real llama-server commands have about
 * a hundred, and Windows caps a whole command line at 32,767 characters.
 */
export const MAX_ARGUMENTS = 4096

/** Refuses an argument list longer than MAX_ARGUMENTS (pasted, or given as an argv). */
export function checkArgumentCount(count: number, position = 0): void {
  if (count > MAX_ARGUMENTS) {
    throw new CommandLineError(
      `The command has more than ${MAX_ARGUMENTS.toLocaleString('en-US')} arguments, more than any llama-server command needs: paste ` +
        `the command itself, not a file or a log.`,
      position,
    )
  }
}

/** Refuses a NUL character, which no program argument can hold (it ends a C string). */
export function checkNoNul(text: string, position = 0): void {
  const at = text.indexOf('\0')
  if (at >= 0) {
    throw new CommandLineError(
      `The command holds a NUL character (at character ${position + at + 1}), which no program argument can carry: copy the command ` +
        `again from its source.`,
      position + at,
    )
  }
}

const OPERATORS = new Set(['&&', '||', '|', ';', '&', '>', '>>', '<', '2>', '2>&1', '1>', '&>'])
const DOLLAR_VARIABLE = /\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\(/
const PERCENT_VARIABLE = /%[A-Za-z_][A-Za-z0-9_]*%/
const ANY_VARIABLE = new RegExp(`${DOLLAR_VARIABLE.source}|${PERCENT_VARIABLE.source}`)

// A continuation character followed by optional spaces and a newline (outside quotes).
const CONTINUATION = /[\\^`][ \t]*\r?\n/y
// PowerShell treats the typographic single quotes like ' (people paste them from web pages).
const PS_SINGLE_QUOTES = "'\u2018\u2019\u201a\u201b"

function variablePattern(dialect: CommandLineDialect): RegExp {
  if (dialect === 'cmd') return PERCENT_VARIABLE
  if (dialect === 'posix' || dialect === 'powershell') return DOLLAR_VARIABLE
  return ANY_VARIABLE
}

/** A PowerShell paste starts with the call operator or uses backtick continuations. */
function detectDialect(text: string): CommandLineDialect {
  if (/^\s*&\s*['"\u2018\u2019]/.test(text) || /^\s*&\s+\S/.test(text) || /`[ \t]*\r?\n/.test(text)) return 'powershell'
  return 'auto'
}

export function tokenizeCommandLine(input: string, options: TokenizeOptions = {}): string[] {
  checkNoNul(input)
  let text = input
  let dialect = options.dialect ?? 'auto'
  if (dialect === 'auto') dialect = detectDialect(text)
  let offset = 0
  if (dialect === 'powershell') {
    const call = /^\s*&\s*/.exec(text)
    if (call) offset = call[0].length
  }
  text = text.slice(offset)
  const variable = variablePattern(dialect)
  const singleQuotes = dialect === 'powershell' ? PS_SINGLE_QUOTES : "'"
  const args: string[] = []
  // Where the command's last visible character is: line breaks after it are only trailing blank lines.
  const end = text.trimEnd().length
  let current = ''
  let inToken = false
  let quoted = false // the current token had quotes, so it is literal text
  let i = 0
  const pushToken = (): void => {
    if (!inToken) return
    if (!quoted && OPERATORS.has(current)) {
      throw new CommandLineError(
        `"${current}" is a shell operator: paste a single llama-server command, without pipes, redirections or command chains`,
        offset + i,
      )
    }
    args.push(current)
    checkArgumentCount(args.length, offset + i)
    current = ''
    inToken = false
    quoted = false
  }
  const checkVariable = (segment: string, at: number): void => {
    const m = variable.exec(segment)
    if (m) {
      throw new CommandLineError(
        `"${m[0]}" is a shell variable or substitution, which is not expanded here: write its value instead`,
        offset + at + m.index,
      )
    }
  }
  const isBreak = (ch: string | undefined): boolean => ch !== undefined && (/\s/.test(ch) || ch === '"' || singleQuotes.includes(ch))
  while (i < text.length) {
    const c = text[i] as string
    CONTINUATION.lastIndex = i
    if (CONTINUATION.test(text)) {
      pushToken()
      i = CONTINUATION.lastIndex
    } else if (/\s/.test(c)) {
      // Any white space separates (a pasted no-break space or vertical tab looped forever when only four were).
      pushToken()
      if ((c === '\n' || (c === '\r' && text[i + 1] !== '\n')) && args.length > 0 && i < end) {
        const line = text.slice(0, i + 1).split(/\r\n|\r|\n/).length
        throw new CommandLineError(
          `Line ${line} of the pasted text starts a second command: paste one llama-server command, ending each line but the last with ` +
            `\\ (bash), ^ (cmd) or \` (PowerShell).`,
          offset + i,
        )
      }
      i++
    } else if (singleQuotes.includes(c)) {
      let j = i + 1
      let value = ''
      for (;;) {
        if (j >= text.length) throw new CommandLineError("unterminated ' quote", offset + i)
        const d = text[j] as string
        if (singleQuotes.includes(d)) {
          // PowerShell: a doubled quote is one literal quote.
          if (dialect === 'powershell' && singleQuotes.includes(text[j + 1] ?? 'x')) {
            value += d
            j += 2
            continue
          }
          break
        }
        value += d
        j++
      }
      current += value
      inToken = true
      quoted = true
      i = j + 1
    } else if (c === '"') {
      let j = i + 1
      let value = ''
      for (;;) {
        if (j >= text.length) throw new CommandLineError('unterminated " quote', offset + i)
        const d = text[j]
        if (d === '\\') {
          // C runtime rule: 2n backslashes + quote → n backslashes and the quote ends the string;
          // 2n+1 → n backslashes and a literal quote; backslashes elsewhere are literal.
          let k = j
          while (text[k] === '\\') k++
          const run = k - j
          if (text[k] === '"') {
            value += '\\'.repeat(Math.floor(run / 2))
            if (run % 2 === 1) {
              value += '"'
              j = k + 1
            } else {
              j = k
            }
          } else {
            value += '\\'.repeat(run)
            j = k
          }
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
    } else if (c === '\\' && i + 1 < text.length && isBreak(text[i + 1])) {
      current += text[i + 1]
      inToken = true
      i += 2
    } else {
      let j = i
      while (j < text.length && !isBreak(text[j]) && !(text[j] === '\\' && isBreak(text[j + 1]))) {
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
  if (/^[A-Za-z0-9_@%+=:,./\\-]+$/.test(arg) && !ANY_VARIABLE.test(arg) && !OPERATORS.has(arg) && !/\\$/.test(arg)) return arg
  // Single quotes are fully literal; a single quote itself goes in double quotes.
  return arg
    .split("'")
    .map((part) => (part === '' ? '' : `'${part}'`))
    .join(`"'"`)
}
