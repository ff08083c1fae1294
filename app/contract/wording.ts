// The one place a fragment becomes a sentence a person reads, shared by the CLI,
// the tray and the dashboard. The diagnoses (app/supervisor) keep their reason and
// hint as lowercase fragments, so they can also follow a colon; whoever shows them
// as sentences goes through here.

/** Abbreviations whose full stop ends no sentence (so "e.g. mmap" keeps its lowercase). */
const ABBREVIATION = /(?:\be\.g|\bi\.e|\bvs|\betc)$/i

/**
 * A first word that keeps its case even at the start of a sentence: a file name or a path
 * ("tiny-target.gguf does not match…"), a flag, or a name spelled in lower case ("llama.cpp").
 */
const LOWER_CASE_NAME = /^(?:-|[^\s]*[./\\])/

/** A sentence's end: a full stop, "!", "?" or "…", maybe inside a closing quote or bracket. */
const ENDED = /[.!?…]["”')]?$/

/** A lowercase letter right after a sentence's end (". ", "! ", "? "), the end captured. */
const AFTER_END = /([.!?]["”')]?\s+)([a-z])/g

/**
 * "the model is missing. check the -m path" → "The model is missing. Check the -m path.":
 * a capital at the start and after every sentence's end, and a full stop at the end
 * (kept when the text already ends with one, or with "!" or "?").
 */
export function asSentence(text: string): string {
  const t = text.trim()
  if (t === '') return t
  const capitalised = t.replace(AFTER_END, (whole: string, end: string, letter: string, offset: number) =>
    ABBREVIATION.test(t.slice(0, offset)) || LOWER_CASE_NAME.test(t.slice(offset + end.length)) ? whole : `${end}${letter.toUpperCase()}`,
  )
  const first = LOWER_CASE_NAME.test(capitalised) ? capitalised : capitalised.charAt(0).toUpperCase() + capitalised.slice(1)
  return ENDED.test(first) ? first : `${first}.`
}

/** Several fragments as sentences, one after the other; empty ones are left out. */
export function sentences(...parts: readonly (string | null | undefined)[]): string {
  return parts
    .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
    .map(asSentence)
    .join(' ')
}

/** A failure as the user reads it: the cause, then what to do ("The model file x.gguf does not exist. Check the -m path."). */
export function failureSentence(reason: string, hint: string | null | undefined): string {
  return sentences(reason, hint)
}
