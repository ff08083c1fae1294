// The sentences an import is refused with, shared by the CLI and the dashboard: the cause is worded
// once; only the way to override it is named in each surface's own terms (a CLI option, a button).

/** How a refused import can be stored after all: "force" (Import anyway) or "replace" (overwrite the namesake). */
export type ImportOffer = 'force' | 'replace'

/** Who reads the sentence: the override is named as the option or the button that surface has. */
export type ImportSurface = 'cli' | 'dashboard'

/** What `profiles:import` may be told, like the CLI's --force and --replace. */
export interface ImportCommandOptions {
  /** Store a command whose -m file is missing (marked missing) or whose first word is not a llama-server. */
  readonly force?: boolean
  /** Overwrite the profile of the same name instead of refusing. */
  readonly replace?: boolean
}

const OVERRIDE: Readonly<Record<ImportSurface, Readonly<Record<ImportOffer, string>>>> = {
  cli: { force: 'add --force', replace: 'add --replace' },
  dashboard: { force: 'choose Import anyway', replace: 'choose Replace' },
}

const OTHER_NAME: Readonly<Record<ImportSurface, string>> = { cli: 'choose another --name', dashboard: 'choose another name' }

/** The model file named by -m is not there. */
export function missingModelSentence(model: string, surface: ImportSurface): string {
  return `The model file ${model} does not exist: check the -m path, or ${OVERRIDE[surface].force} to store the profile marked missing.`
}

/** The path named by -m is there but is no file a model can be read from (a folder, a FIFO, a device). */
export function modelNotAFileSentence(model: string, kind: string, surface: ImportSurface): string {
  return `The -m path ${model} is ${kind}, not a model file: check the -m path, or ${OVERRIDE[surface].force} to store it anyway.`
}

/** The command's first word does not look like a llama-server ("ollama run qwen3:30b"). */
export function notAServerSentence(binary: string, surface: ImportSurface): string {
  return (
    `The program "${binary}" is not a llama-server, so this command was not imported: paste a llama-server command line, or ` +
    `${OVERRIDE[surface].force} to store it anyway.`
  )
}

/** llama.cpp's one program without its server's subcommand ("llama -m model.gguf"). */
export function oneBinaryWithoutServeSentence(binary: string): string {
  return `"${binary}" runs llama-server only as "${binary} serve": add serve after it, then the server's flags.`
}

/** A profile of that name exists already. */
export function duplicateNameSentence(name: string, id: string, surface: ImportSurface): string {
  return `A profile named "${name}" exists already (${id}): ${OTHER_NAME[surface]}, or ${OVERRIDE[surface].replace} to overwrite it.`
}
