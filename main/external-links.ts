/**
 * The only pages the app opens in the user's browser: a fixed list of https
 * links, compared as exact strings. Nothing taken from a profile, a log or the
 * page itself is ever opened (shell.openExternal launches whatever it is given).
 */
export const EXTERNAL_LINKS: readonly string[] = [
  'https://github.com/ggml-org/llama.cpp',
  'https://github.com/ggml-org/llama.cpp/releases',
  'https://github.com/ggml-org/llama.cpp/tree/master/tools/server',
  'https://github.com/ikawrakow/ik_llama.cpp',
  'https://huggingface.co/models?library=gguf',
]

export function isAllowedExternalLink(url: string): boolean {
  return EXTERNAL_LINKS.includes(url)
}
