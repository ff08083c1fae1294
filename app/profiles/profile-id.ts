import { PROFILE_ID } from './schema'

/** A readable id from a name ("Qwen3.6 35B A3B" → "qwen3.6-35b-a3b"), unique among `taken`. */
export function makeProfileId(name: string, taken: Iterable<string> = []): string {
  const used = new Set(taken)
  let base = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .replace(/-+$/, '')
    .slice(0, 56)
  if (!PROFILE_ID.test(base)) base = 'profile'
  if (!used.has(base)) return base
  for (let n = 2; ; n++) {
    const id = `${base}-${n}`
    if (!used.has(id)) return id
  }
}

/** The file name of a path without folders and extension (either slash). */
export function baseName(path: string): string {
  const file = path.split(/[\\/]/).pop() ?? path
  return file.replace(/\.gguf$/i, '')
}
