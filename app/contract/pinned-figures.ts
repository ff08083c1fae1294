import type { PinnedServerView } from './snapshot'

/**
 * A pinned server's figures in a few words, for its Running row, the CLI's lines and the tray: "12.3 tok/s" while it
 * generates, else its last request's "9.8 tok/s, prompt 240 tok/s"; then "1 restart". Empty when there is nothing to say.
 */
export function pinnedFigures(p: Pick<PinnedServerView, 'generation' | 'restarts'>): string {
  const parts: string[] = []
  const g = p.generation
  if (g?.active && g.tokensPerSecond !== null) parts.push(`${g.tokensPerSecond.toFixed(1)} tok/s`)
  else if (g?.last) {
    const { predictedTokens, predictedTokensPerSecond, promptTokens, promptTokensPerSecond } = g.last
    const speeds = [predictedTokens > 0 ? `${predictedTokensPerSecond.toFixed(1)} tok/s` : null]
    if (promptTokens > 0) speeds.push(`prompt ${Math.round(promptTokensPerSecond)} tok/s`)
    const said = speeds.filter((s): s is string => s !== null)
    if (said.length > 0) parts.push(`last ${said.join(', ')}`)
  }
  if (p.restarts > 0) parts.push(`${p.restarts} restart${p.restarts === 1 ? '' : 's'}`)
  return parts.join(' · ')
}
