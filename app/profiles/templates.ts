import { importCommand } from './import-command'
import type { Profile } from './schema'
import { SEED_3090_BUUN_I_QUALITY, SEED_3090_IK_I_COMPACT, SEED_4060_QWEN36 } from './seed-commands'

export interface ProfileTemplate {
  readonly id: string
  readonly name: string
  /** Which engine the flags were written for. */
  readonly fork: 'mainline' | 'ik_llama' | 'buun'
  readonly description: string
  readonly command: string
}

/** Built-in templates from the seed reports (users' field reports of a command and its speed). */
export const PROFILE_TEMPLATES: readonly ProfileTemplate[] = [
  {
    id: 'rtx4060-laptop-qwen36-35b-a3b',
    name: 'RTX 4060 Laptop 8 GB · Qwen3.6-35B-A3B Q4_K_M (experts on CPU, draft)',
    fork: 'mainline',
    description:
      'Dense layers on the GPU, 34 layers of experts on the CPU, weights loaded into RAM (--no-mmap), q4_0 KV cache, Qwen3.5-0.8B ' +
      'draft (+26% on this machine), thinking off with --reasoning off (other ways fail with a draft). ~39 tok/s, ~5.4 GB VRAM; keep ' +
      '≥1.5 GB VRAM free on Windows.',
    command: SEED_4060_QWEN36,
  },
  {
    id: 'rtx3090-ik-apex-i-compact',
    name: 'RTX 3090 · ik_llama.cpp · Qwen3.6-35B-A3B APEX I-Compact',
    fork: 'ik_llama',
    description:
      '196K context, q8_0/q5_0 KV cache with Hadamard V (-vhad), merged QKV; ~146 tok/s decode at 128K. Needs an ik_llama.cpp build.',
    command: SEED_3090_IK_I_COMPACT,
  },
  {
    id: 'rtx3090-buun-apex-i-quality',
    name: 'RTX 3090 · buun-llama-cpp · Qwen3.6-35B-A3B APEX I-Quality (turbo8/turbo4)',
    fork: 'buun',
    description:
      '128K context, asymmetric TurboQuant KV cache (turbo8 keys, turbo4 values); ~137 tok/s decode. Needs a buun-llama-cpp build.',
    command: SEED_3090_BUUN_I_QUALITY,
  },
]

/**
 * A new profile from a template, with the seed author's paths cleared: the
 * user fills in the binary and the model (the draft keeps its file name as a hint).
 */
export function profileFromTemplate(templateId: string, options: { takenIds?: Iterable<string>; now?: Date } = {}): Profile {
  const t = PROFILE_TEMPLATES.find((x) => x.id === templateId)
  if (!t) throw new Error(`no template "${templateId}" (known: ${PROFILE_TEMPLATES.map((x) => x.id).join(', ')})`)
  const imported = importCommand(t.command, { name: t.name, takenIds: options.takenIds, now: options.now })
  return { ...imported, id: imported.id === 'profile' ? t.id : imported.id, binary: '', model: '', notes: t.description }
}
