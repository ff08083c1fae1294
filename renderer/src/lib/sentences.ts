/**
 * The first sentence of a message and the rest: a warning's headline and the
 * reason behind it. A full stop inside a number ("1.5 GB") or a flag does not
 * end a sentence; one followed by a space and a capital, a digit or a quote does.
 */
export function splitFirstSentence(message: string): { readonly first: string; readonly rest: string } {
  const m = /^(.+?[.!?])\s+(?=[A-Z0-9“"(])/s.exec(message)
  if (!m || !m[1]) return { first: message.trim(), rest: '' }
  return { first: m[1].trim(), rest: message.slice(m[0].length).trim() }
}
