import { checkArgumentCount, checkNoNul, CommandLineError, tokenizeCommandLine, type CommandLineDialect } from '../lib/command-line'
import { parseArgs } from './profile-args'
import { baseName, makeProfileId } from './profile-id'
import { nameFromFile, normalizeProfileName, profileNameProblem } from './profile-name'
import type { Profile } from './schema'
import type { ImportOffer } from '../contract/import-wording'
import { problem, type Problem } from '../contract/problem'
import { isOneBinaryLlama } from '../contract/server-binary'
import { oneBinaryWithoutServeSentence } from '../contract/import-wording'

export class ImportError extends Error {
  constructor(
    message: string,
    /** How the user can store it after all, when they can (Import anyway, --force). */
    readonly offer?: ImportOffer,
  ) {
    super(message)
    this.name = 'ImportError'
  }

  /** What views and the CLI show for it. */
  toProblem(): Problem {
    return problem('input', this.message)
  }
}

export interface ImportOptions {
  readonly name?: string
  readonly dialect?: CommandLineDialect
  /** Ids already in the store (the new id avoids them). */
  readonly takenIds?: Iterable<string>
  readonly now?: Date
}

const SCRIPT = /\.(bat|cmd|ps1)$/i
const ENV_ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s

/**
 * A profile from a command as pasted: leading NAME=value assignments become
 * its environment, a leading non-flag word is the llama-server binary, and the
 * rest are its arguments (typed where we know the flag, untouched otherwise).
 * Throws ImportError with an explanation for what we will not run.
 */
export function importArgv(argv: readonly string[], options: ImportOptions = {}): Profile {
  const nameProblem = options.name === undefined ? null : profileNameProblem(options.name)
  if (nameProblem) throw new ImportError(nameProblem)
  readable(() => {
    checkArgumentCount(argv.length)
    argv.forEach((arg) => checkNoNul(arg))
  })
  let i = 0
  const env: Record<string, string> = {}
  for (; i < argv.length; i++) {
    const m = ENV_ASSIGNMENT.exec(argv[i] as string)
    if (!m || i + 1 >= argv.length) break
    env[m[1] as string] = m[2] as string
  }
  const first = argv[i]
  if (first === undefined) throw new ImportError('the command is empty: paste a llama-server command line')
  let binary = ''
  if (!first.startsWith('-')) {
    if (SCRIPT.test(first)) {
      throw new ImportError(`"${first}" is a script, which Llama Tray does not run: paste the llama-server command from inside it`)
    }
    binary = first
    i++
    // llama.cpp's one program is a llama-server only after `serve`, which the binary's name then stands for (server-binary.ts).
    if (isOneBinaryLlama(binary)) {
      if (argv[i] !== 'serve') throw new ImportError(oneBinaryWithoutServeSentence(binary.replace(/\\/g, '/').split('/').pop() ?? binary))
      i++
    }
  }
  const parsed = parseArgs(argv.slice(i))
  const now = (options.now ?? new Date()).toISOString()
  const given = options.name?.trim()
  const name = given
    ? normalizeProfileName(given)
    : nameFromFile(parsed.model ? baseName(parsed.model) : binary ? `${baseName(binary)} profile` : 'Imported profile')
  return {
    id: makeProfileId(name, options.takenIds),
    name,
    binary,
    model: parsed.model,
    ...(parsed.draftModel !== undefined ? { draftModel: parsed.draftModel } : {}),
    settings: parsed.settings,
    extraArgs: [...parsed.extraArgs],
    argOrder: [...(parsed.argOrder ?? [])],
    env,
    notes: '',
    createdAt: now,
    updatedAt: now,
  }
}

/** Runs a command-line check, its CommandLineError becoming an ImportError. */
function readable<T>(job: () => T): T {
  try {
    return job()
  } catch (err) {
    if (!(err instanceof CommandLineError)) throw err
    // Newer messages are whole sentences; the older ones are phrases that need the context.
    throw new ImportError(/^[A-Z].*\.$/s.test(err.message) ? err.message : `cannot read the command: ${err.message}`)
  }
}

/** importArgv on a pasted command line (bash, cmd or PowerShell). */
export function importCommand(text: string, options: ImportOptions = {}): Profile {
  return importArgv(
    readable(() => tokenizeCommandLine(text, { dialect: options.dialect ?? 'auto' })),
    options,
  )
}
