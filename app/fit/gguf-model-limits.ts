import type { GgufValue } from './gguf-header'

/**
 * Sane ranges for the hyperparameters the estimator loops over or multiplies.
 * Far above any real model (the deepest have ~130 layers, the widest a 16,384
 * embedding, the longest context 10 M tokens, the most experts 512), far below
 * what would hang a loop or print a nonsense table.
 */
export const MODEL_LIMITS = {
  block_count: [1, 4096],
  nextn_predict_layers: [0, 64],
  embedding_length: [1, 2 ** 20],
  'attention.head_count': [0, 65_536],
  'attention.head_count_kv': [0, 65_536],
  'attention.key_length': [0, 65_536],
  'attention.value_length': [0, 65_536],
  context_length: [0, 2 ** 30],
  feed_forward_length: [0, 2 ** 24],
  expert_count: [0, 4096],
  expert_used_count: [0, 4096],
  expert_feed_forward_length: [0, 2 ** 24],
  full_attention_interval: [0, 4096],
  'ssm.conv_kernel': [0, 1024],
  'ssm.state_size': [0, 65_536],
  'ssm.inner_size': [0, 2 ** 20],
  'ssm.group_count': [0, 65_536],
} as const satisfies Record<string, readonly [number, number]>

export type LimitedKey = keyof typeof MODEL_LIMITS

const asNumber = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined)

/**
 * Why `<arch>.<key>` is out of its range, or null when it is absent or fine.
 * Per-layer arrays (some GGUFs store head counts so) are checked item by item.
 */
export function outOfRange(md: Readonly<Record<string, GgufValue>>, arch: string, key: LimitedKey): string | null {
  const full = `${arch}.${key}`
  const v = md[full]
  if (v === undefined) return null
  const [min, max] = MODEL_LIMITS[key]
  const values = Array.isArray(v) ? v : [v]
  if (Array.isArray(v) && v.length > MODEL_LIMITS.block_count[1])
    return `its ${full} has ${v.length.toLocaleString('en-US')} items, more than layers a model can have`
  for (const item of values) {
    const n = asNumber(item)
    if (n === undefined || !Number.isInteger(n) || n < min || n > max) {
      const shown = typeof item === 'string' ? JSON.stringify(item.slice(0, 40)) : String(item)
      return `its ${full} is ${shown}, not a whole number from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`
    }
  }
  return null
}
