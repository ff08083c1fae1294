import { CommandLineError, tokenizeCommandLine, type CommandLineDialect } from '../lib/command-line'
import { parseArgs } from './profile-args'
import { baseName, makeProfileId } from './profile-id'
import type { Profile } from './schema'

export class ImportError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ImportError'
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
  }
  const parsed = parseArgs(argv.slice(i))
  const now = (options.now ?? new Date()).toISOString()
  const name = options.name?.trim() || (parsed.model ? baseName(parsed.model) : binary ? `${baseName(binary)} profile` : 'Imported profile')
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

/** importArgv on a pasted command line (bash, cmd or PowerShell). */
export function importCommand(text: string, options: ImportOptions = {}): Profile {
  let argv: string[]
  try {
    argv = tokenizeCommandLine(text, { dialect: options.dialect ?? 'auto' })
  } catch (err) {
    if (err instanceof CommandLineError) throw new ImportError(`cannot read the command: ${err.message}`)
    throw err
  }
  return importArgv(argv, options)
}
