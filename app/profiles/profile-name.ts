/** C0 and C1 control characters and DEL (an ANSI escape starts with one). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x1f\x7f-\x9f]/

/** The sentence for a profile name we will not store, or null when it is fine. */
export function profileNameProblem(name: string): string | null {
  return CONTROL.test(name)
    ? 'The profile name holds a control character (an escape code, a tab or a line break): type the name again without it.'
    : null
}
