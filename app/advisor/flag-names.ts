import { fieldSpellings, spellingsOf } from '../contract/flag-args'

/** Every spelling of the llama-server flags the rules read (mainline, ik_llama, buun), from the flag registry. */
export const F = {
  model: fieldSpellings('model'),
  draft: fieldSpellings('draftModel'),
  draftGpuLayers: fieldSpellings('draftGpuLayers'),
  ctx: fieldSpellings('ctxSize'),
  parallel: fieldSpellings('parallel'),
  kvUnified: spellingsOf('kv-unified'),
  gpuLayers: fieldSpellings('gpuLayers'),
  nCpuMoe: fieldSpellings('nCpuMoe'),
  cpuMoe: fieldSpellings('cpuMoe'),
  overrideTensor: spellingsOf('override-tensor'),
  tensorSplit: spellingsOf('tensor-split'),
  cacheTypeK: fieldSpellings('cacheTypeK'),
  cacheTypeV: fieldSpellings('cacheTypeV'),
  cacheTypeKDraft: spellingsOf('spec-draft-type-k'),
  cacheTypeVDraft: spellingsOf('spec-draft-type-v'),
  flashAttn: fieldSpellings('flashAttn'),
  loadMode: fieldSpellings('loadMode'),
  noMmap: fieldSpellings('noMmap'),
  mmap: spellingsOf('mmap'),
  mlock: fieldSpellings('mlock'),
  threads: spellingsOf('threads'),
  repack: spellingsOf('run-time-repack'),
  specType: fieldSpellings('specType'),
  reasoning: fieldSpellings('reasoning'),
  reasoningBudget: fieldSpellings('reasoningBudget'),
  templateKwargs: spellingsOf('chat-template-kwargs'),
  sleepIdle: spellingsOf('sleep-idle-seconds'),
  host: fieldSpellings('host'),
  apiKey: spellingsOf('api-key', 'api-key-file'),
  fit: spellingsOf('fit'),
  fitTarget: spellingsOf('fit-target'),
  mtp: spellingsOf('multi-token-prediction'),
} as const satisfies Record<string, readonly string[]>

/** Flags llama-server takes more than once on purpose (lists, or mainline's exception for --spec-type). */
export const REPEATABLE = new Set(
  spellingsOf(
    'override-tensor',
    'spec-type',
    'lora',
    'lora-scaled',
    'control-vector',
    'control-vector-scaled',
    'logit-bias',
    'api-key',
    'spec-draft-hf',
  ),
)
