/**
 * Levenshtein distance between two short strings (option names). Ten lines here instead of a dependency:
 * the inputs are a few dozen characters, so the plain two-row dynamic programme is instant.
 */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution)
    }
    previous = current
  }
  return previous[b.length] as number
}

/**
 * The known name closest to what was typed, or null when none is close: at most a third of the longer
 * name may differ (at least one edit), so "--duraton" finds "--duration" but "--x" finds nothing.
 */
export function closestName(typed: string, known: readonly string[]): string | null {
  let best: { name: string; distance: number } | null = null
  for (const name of known) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase())
    const allowed = Math.max(1, Math.floor(Math.max(typed.length, name.length) / 3))
    if (distance <= allowed && (best === null || distance < best.distance)) best = { name, distance }
  }
  return best?.name ?? null
}
