/**
 * Edit distance between two short strings (option and setting names): insertions, deletions, substitutions
 * and swaps of two neighbours ("prot" for "port" is one edit). A dozen lines here instead of a dependency:
 * the inputs are a few dozen characters, so the plain table is instant.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)]
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      const above = rows[i - 1] as number[]
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, (rows[i - 2]?.[j - 2] as number) + 1)
    }
    rows.push(row)
  }
  return rows[a.length]?.[b.length] as number
}

/**
 * The known name closest to what was typed, or null when none is close: at most a third of the longer
 * name may differ (at least one edit), so "--duraton" finds "--duration" but "--x" finds nothing. A name
 * cut short ("--vram" for "--vram-mib", three letters at least) is found when it starts only one name.
 */
export function closestName(typed: string, known: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null
  for (const name of known) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase())
    const allowed = Math.max(1, Math.floor(Math.max(typed.length, name.length) / 3))
    if (distance <= allowed && (best === null || distance < best.distance)) best = { name, distance }
  }
  if (best) return best.name
  const words = (name: string): string => name.replace(/^-+/, '').toLowerCase()
  if (words(typed).length < 3) return null
  const starts = known.filter((name) => words(name).startsWith(words(typed)))
  return starts.length === 1 ? (starts[0] as string) : null
}

/** ' (did you mean list?)' for a word close to one of `known`, else '': for a sentence about an unknown word. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const guess = closestName(typed, known)
  return guess === null ? '' : ` (did you mean ${guess}?)`
}
