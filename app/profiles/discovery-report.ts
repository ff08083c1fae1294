import type { DiscoveredModel, Discovery } from '../contract/profile'

function modelLine(m: DiscoveredModel, n: number): string {
  if (m.problem !== null) return `  m${n}  ${m.path}\n        cannot be read: ${m.problem}`
  const facts = [
    m.architecture,
    m.quantisation,
    `${m.fileMiB} MiB`,
    m.layers !== null ? `${m.layers} layers` : null,
    m.experts !== null ? `${m.experts} experts` : null,
    m.trainingContext !== null ? `ctx ${m.trainingContext}` : null,
    m.looksLikeDraft ? 'draft-sized' : null,
  ].filter((x) => x !== null)
  return `  m${n}  ${m.path}\n        ${facts.join(', ')}  (${m.source}; id ${m.id})`
}

/** The discovery as a numbered list: `profiles create --binary N --model N` picks by these numbers or ids. */
export function formatDiscovery(d: Discovery): string {
  const lines: string[] = []
  lines.push(d.binaries.length === 0 ? 'No llama-server found on PATH or in the usual install folders.' : 'Found llama-server binaries:')
  d.binaries.forEach((b, i) =>
    lines.push(`  b${i + 1}  ${b.path}  (${b.source}${b.fork ? `, ${b.fork}` : ''}${b.version ? ` ${b.version}` : ''}; id ${b.id})`),
  )
  lines.push(d.models.length === 0 ? 'No GGUF models found; add a folder with --models-dir DIR.' : 'Found GGUF models:')
  d.models.forEach((m, i) => lines.push(modelLine(m, i + 1)))
  return lines.join('\n')
}

/** "b2", "2" or an id → what profileFromDiscovery takes (a list number or an id). */
export function pickKey(text: string, letter: 'b' | 'm'): string {
  return new RegExp(`^${letter}\\d+$`).test(text) ? text.slice(1) : text
}
