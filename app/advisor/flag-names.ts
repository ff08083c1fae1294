import { API_KEY_FLAGS, DRAFT_MODEL_FLAGS, HOST_FLAGS, MODEL_FLAGS } from '../supervisor/launch-args'

/** Every spelling of the llama-server flags the rules read (mainline, ik_llama, buun). */
export const F = {
  model: MODEL_FLAGS,
  draft: DRAFT_MODEL_FLAGS,
  draftGpuLayers: ['-ngld', '--gpu-layers-draft', '--spec-draft-ngl', '--n-gpu-layers-draft'],
  ctx: ['-c', '--ctx-size'],
  parallel: ['-np', '--parallel'],
  kvUnified: ['-kvu', '--kv-unified'],
  gpuLayers: ['-ngl', '--gpu-layers', '--n-gpu-layers'],
  nCpuMoe: ['--n-cpu-moe', '-ncmoe'],
  cpuMoe: ['--cpu-moe', '-cmoe'],
  overrideTensor: ['-ot', '--override-tensor'],
  tensorSplit: ['-ts', '--tensor-split'],
  cacheTypeK: ['-ctk', '--cache-type-k'],
  cacheTypeV: ['-ctv', '--cache-type-v'],
  cacheTypeKDraft: ['-ctkd', '--cache-type-k-draft', '--spec-draft-type-k'],
  cacheTypeVDraft: ['-ctvd', '--cache-type-v-draft', '--spec-draft-type-v'],
  flashAttn: ['-fa', '--flash-attn'],
  loadMode: ['-lm', '--load-mode'],
  noMmap: ['--no-mmap'],
  mmap: ['--mmap'],
  mlock: ['--mlock'],
  repack: ['-rtr', '--run-time-repack'],
  specType: ['--spec-type'],
  reasoning: ['--reasoning', '-rea'],
  reasoningBudget: ['--reasoning-budget'],
  templateKwargs: ['--chat-template-kwargs'],
  host: HOST_FLAGS,
  apiKey: API_KEY_FLAGS,
  fit: ['-fit', '--fit'],
  mtp: ['-mtp', '--multi-token-prediction'],
} as const satisfies Record<string, readonly string[]>

/** Flags llama-server takes more than once on purpose (lists, or mainline's exception for --spec-type). */
export const REPEATABLE = new Set([...F.overrideTensor, ...F.specType, '--lora', '--lora-scaled', '--control-vector', '--control-vector-scaled', '-l', '--logit-bias', '--api-key', '-hfd'])
