/**
 * The typed llama-server settings a profile holds, with every spelling each
 * engine accepts. The first spelling is the one written when the profile did
 * not come from a pasted command (mainline's name where engines differ).
 * Facts: ../shared/docs/llama-server.md §3.
 */

export type FieldKind = 'string' | 'path' | 'int' | 'number' | 'bool'

export interface FieldDef {
  readonly key: FieldKey
  readonly kind: FieldKind
  readonly flags: readonly string[]
}

export const FIELD_KEYS = [
  'model',
  'draftModel',
  'gpuLayers',
  'nCpuMoe',
  'cpuMoe',
  'ctxSize',
  'parallel',
  'cacheTypeK',
  'cacheTypeV',
  'flashAttn',
  'loadMode',
  'noMmap',
  'mlock',
  'draftGpuLayers',
  'specType',
  'draftMax',
  'draftMin',
  'reasoning',
  'reasoningBudget',
  'temp',
  'topK',
  'topP',
  'minP',
  'presencePenalty',
  'host',
  'port',
  'apiKey',
  'apiKeyFile',
] as const

export type FieldKey = (typeof FIELD_KEYS)[number]

/** In the order typed fields are written when the profile has no recorded order. */
export const FIELD_DEFS: readonly FieldDef[] = [
  { key: 'model', kind: 'path', flags: ['-m', '--model'] },
  { key: 'draftModel', kind: 'path', flags: ['-md', '--model-draft', '--spec-draft-model'] },
  { key: 'gpuLayers', kind: 'string', flags: ['-ngl', '--gpu-layers', '--n-gpu-layers'] },
  { key: 'nCpuMoe', kind: 'int', flags: ['--n-cpu-moe', '-ncmoe'] },
  { key: 'cpuMoe', kind: 'bool', flags: ['--cpu-moe', '-cmoe'] },
  { key: 'ctxSize', kind: 'int', flags: ['-c', '--ctx-size'] },
  { key: 'parallel', kind: 'int', flags: ['-np', '--parallel'] },
  { key: 'cacheTypeK', kind: 'string', flags: ['-ctk', '--cache-type-k'] },
  { key: 'cacheTypeV', kind: 'string', flags: ['-ctv', '--cache-type-v'] },
  { key: 'flashAttn', kind: 'string', flags: ['-fa', '--flash-attn'] },
  { key: 'loadMode', kind: 'string', flags: ['-lm', '--load-mode'] },
  { key: 'noMmap', kind: 'bool', flags: ['--no-mmap'] },
  { key: 'mlock', kind: 'bool', flags: ['--mlock'] },
  { key: 'draftGpuLayers', kind: 'string', flags: ['-ngld', '--gpu-layers-draft', '--spec-draft-ngl', '--n-gpu-layers-draft'] },
  { key: 'specType', kind: 'string', flags: ['--spec-type'] },
  { key: 'draftMax', kind: 'int', flags: ['--spec-draft-n-max', '--draft-max', '--draft', '--draft-n'] },
  { key: 'draftMin', kind: 'int', flags: ['--spec-draft-n-min', '--draft-min', '--draft-n-min'] },
  { key: 'reasoning', kind: 'string', flags: ['--reasoning', '-rea'] },
  { key: 'reasoningBudget', kind: 'int', flags: ['--reasoning-budget'] },
  { key: 'temp', kind: 'number', flags: ['--temp'] },
  { key: 'topK', kind: 'int', flags: ['--top-k'] },
  { key: 'topP', kind: 'number', flags: ['--top-p'] },
  { key: 'minP', kind: 'number', flags: ['--min-p'] },
  { key: 'presencePenalty', kind: 'number', flags: ['--presence-penalty'] },
  { key: 'host', kind: 'string', flags: ['--host'] },
  { key: 'port', kind: 'int', flags: ['--port'] },
  { key: 'apiKey', kind: 'string', flags: ['--api-key'] },
  { key: 'apiKeyFile', kind: 'path', flags: ['--api-key-file'] },
]

const BY_FLAG = new Map<string, FieldDef>(FIELD_DEFS.flatMap((d) => d.flags.map((f) => [f, d] as const)))
const BY_KEY = new Map<FieldKey, FieldDef>(FIELD_DEFS.map((d) => [d.key, d]))

export function fieldForFlag(flag: string): FieldDef | undefined {
  return BY_FLAG.get(flag)
}

export function fieldDef(key: FieldKey): FieldDef {
  const def = BY_KEY.get(key)
  if (!def) throw new Error(`unknown profile field ${key}`)
  return def
}

/**
 * The typed value for `text`, or undefined when the text would not be written
 * back identically (then the flag stays in the extra arguments, untouched).
 */
export function parseFieldValue(kind: FieldKind, text: string): string | number | undefined {
  switch (kind) {
    case 'bool':
      return undefined
    case 'string':
      return text
    case 'path':
      return text === '' ? undefined : text
    case 'int': {
      if (!/^(0|-?[1-9][0-9]*)$/.test(text)) return undefined
      const n = Number(text)
      return Number.isSafeInteger(n) ? n : undefined
    }
    case 'number': {
      if (!/^-?[0-9.]+$/.test(text)) return undefined
      const n = Number(text)
      return Number.isFinite(n) && String(n) === text ? n : undefined
    }
  }
}
