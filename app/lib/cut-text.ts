/**
 * A string read from a file someone else made (a GGUF's architecture, a reader's error quoting it) as one a listing
 * can show: at most `max` characters, and marked when it was cut, with how much was left out. A 10 MB architecture
 * string printed whole filled the terminal and the JSON of `discover` and `models list`.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text
  const left = text.length - max
  return `${text.slice(0, max)}… (${left.toLocaleString('en-US')} more characters)`
}

/** Listing fields: a name or an architecture. */
export const MAX_LISTED_NAME = 80
/** Listing sentences: a file's problem. */
export const MAX_LISTED_SENTENCE = 400
