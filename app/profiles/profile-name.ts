/** C0 and C1 control characters and DEL (an ANSI escape starts with one). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x1f\x7f-\x9f]/

/** Bidirectional overrides and isolates: U+202E shows "abc.exe" as "exe.cba", so one name can pass for another. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/
/** Zero-width space, non-joiner, joiner and the byte-order mark: invisible, so two names that look the same differ. */
const ZERO_WIDTH = /[\u200b-\u200d\ufeff]/

/** The sentence for a profile name we will not store, or null when it is fine. */
export function profileNameProblem(name: string): string | null {
  if (CONTROL.test(name))
    return 'The profile name holds a control character (an escape code, a tab or a line break): type the name again without it.'
  if (BIDI.test(name)) return 'The profile name holds a text-direction control, which can disguise it: type the name again without it.'
  if (ZERO_WIDTH.test(name)) return 'The profile name holds an invisible zero-width character: type the name again without it.'
  return null
}

/**
 * A name as stored and compared: NFC, so "Café" typed precomposed (NFC) and decomposed (NFD, macOS file names) is one
 * name, not two that look the same.
 */
export function normalizeProfileName(name: string): string {
  return name.normalize('NFC')
}

/** A name made from a file's name (no name given): normalised, with the invisible and direction characters left out. */
export function nameFromFile(name: string): string {
  return normalizeProfileName(name.replace(new RegExp(`${BIDI.source}|${ZERO_WIDTH.source}`, 'g'), ''))
}
