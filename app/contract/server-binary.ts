/**
 * llama.cpp's one-binary install (0.2.0 on, #27498: winget, the install script): `llama` / `llama.exe`, one
 * program with subcommands, whose `llama serve …` is llama-server. A profile keeps the program as its binary and
 * the server's own arguments; the subcommand is derived from the program's name wherever the binary is run
 * (the supervisor, --help and --version probes) or written out (export), so it is in one place.
 */

const ONE_BINARY = /^llama(\.exe)?$/i

/** The program's base name, either separator. */
function baseNameOf(binary: string): string {
  return binary.replace(/\\/g, '/').split('/').pop() ?? binary
}

/** Whether a binary is llama.cpp's one program (`llama`, `llama.exe`). */
export function isOneBinaryLlama(binary: string): boolean {
  return ONE_BINARY.test(baseNameOf(binary))
}

/** The words that make a binary run llama-server: ['serve'] for the one program, none for a llama-server. */
export function serverSubcommand(binary: string): readonly string[] {
  return isOneBinaryLlama(binary) ? ['serve'] : []
}
