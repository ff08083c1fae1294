import type { WarningFix, WarningLevel } from '../contract/warnings'
import { fieldForFlag } from '../profiles/flag-fields'
import { checkArgs, forkAndVersion } from '../profiles/flag-check'
import { binarySentence } from './binary-sentence'
import { asSentence } from '../contract/wording'
import { isLoopbackHost } from '../supervisor/launch-args'
import { keyListProblem, keyProblemSentence } from '../supervisor/api-key-rules'
import { ggmlTypeName } from '../fit/ggml-types'
import { fieldSpellings, flagUses, has, intValue, lastValue, usesOf } from '../contract/flag-args'
import { F, REPEATABLE } from './flag-names'
import { fmtMiB, isHybrid, kvCacheMiB, kvCells, recurrentMiBPerSequence } from './kv-size'
import type { LintFinding, LintInput, LintRule } from './lint-input'
import { FIT_RULES } from './fit-rules'

/**
 * The static advisor: one entry per finding of the seed reports (and of
 * llama-server's known pitfalls), each with a stable id, a level, the seeds' numbers in
 * its reason and, where an argument change helps, a fix. Rules that need a
 * fact nobody could read (engine, GGUF) stay silent.
 */

/** A finding: its headline (one sentence), the reason behind it (measurements, sources, what to change) and its fix. */
function finding(
  rule: string,
  level: WarningLevel,
  words: { readonly headline: string; readonly reason?: string },
  fix: WarningFix | null,
  detail?: string,
): LintFinding {
  return { id: detail ? `${rule}:${detail}` : rule, rule, level, headline: words.headline, reason: words.reason ?? '', fix }
}

const INLINE_KEY = fieldSpellings('apiKey')

const fix = (label: string, removeArgs: readonly string[], addArgs: readonly string[] = []): WarningFix => ({ label, removeArgs, addArgs })

/** Measured on the H200 machine (16 cores, test/fixtures/llama-server-cuda-h200/summary.tsv: q36-seed vs q36-seed-lm-none). */
const LOAD_MODE_NONE_LOAD =
  'on a 16-core host, Qwen3.6-35B-A3B (20 GB) was ready in 12.5 s against 2.5 s memory-mapped, and longer still while other apps keep ' +
  'the CPU busy'

/** Experts (or other weights) kept in host memory: --n-cpu-moe N>0, --cpu-moe, or -ot …=CPU. */
function cpuExperts(args: readonly string[]): string | null {
  const n = intValue(args, F.nCpuMoe)
  if (n !== null && n > 0) return `--n-cpu-moe ${n}`
  if (has(args, F.cpuMoe)) return '--cpu-moe'
  const ot = usesOf(args, F.overrideTensor).find((u) => u.value !== null && /=\s*CPU\b/i.test(u.value))
  return ot ? `-ot ${ot.value}` : null
}

/** mmap is off with --no-mmap, -lm none|mlock|dio, or ik's -rtr. */
function mmapOff(args: readonly string[]): boolean {
  if (has(args, F.noMmap) || has(args, F.repack)) return true
  const lm = lastValue(args, F.loadMode)
  return lm !== null && /^(none|mlock|dio)$/i.test(lm)
}

function usesLoadMode(input: LintInput): boolean {
  return (input.binaryInfo?.flags.has('--load-mode') ?? false) || has(input.args, F.loadMode)
}

function flashAttnOn(args: readonly string[]): boolean {
  const uses = usesOf(args, F.flashAttn)
  const last = uses[uses.length - 1]
  if (!last) return false
  return last.value === null || /^(on|1|true)$/i.test(last.value)
}

const IQ_TYPES = new Set(['iq1_s', 'iq1_m', 'iq2_xxs', 'iq2_xs', 'iq2_s', 'iq3_xxs', 'iq3_s', 'iq4_nl', 'iq4_xs'])

/** The dominant type (by bytes) of the routed-expert tensors, or null without experts. */
function expertType(input: LintInput): { name: string; iq: boolean } | null {
  const bytes = new Map<string, number>()
  for (const t of input.model?.tensors ?? [])
    if (t.expert) bytes.set(ggmlTypeName(t.typeId), (bytes.get(ggmlTypeName(t.typeId)) ?? 0) + t.bytes)
  let best: string | null = null
  for (const [name, b] of bytes) if (best === null || b > (bytes.get(best) ?? 0)) best = name
  return best === null ? null : { name: best, iq: IQ_TYPES.has(best.toLowerCase()) }
}

/** The KV cache of a hybrid model, at f16 and as configured. */
function hybridKv(
  input: LintInput,
): { cells: number; f16: number; configured: number | null; typeK: string; typeV: string; share: number } | null {
  const model = input.model
  if (!model || !isHybrid(model)) return null
  const cells = kvCells(model, intValue(input.args, F.ctx), intValue(input.args, F.parallel))
  const typeK = lastValue(input.args, F.cacheTypeK) ?? 'f16'
  const typeV = lastValue(input.args, F.cacheTypeV) ?? 'f16'
  const f16 = kvCacheMiB(model, cells, 'f16', 'f16') ?? 0
  return { cells, f16, configured: kvCacheMiB(model, cells, typeK, typeV), typeK, typeV, share: f16 / (model.fileBytes / 1024 / 1024) }
}

/** "Small": the whole f16 KV cache is under a tenth of the weights (seed 000: 1.25 GiB at 64K against a 20 GB model). */
const SMALL_KV_SHARE = 0.1

function parseKwargs(text: string | null): Record<string, unknown> | null {
  if (text === null) return null
  try {
    const v: unknown = JSON.parse(text)
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The idle time the sleep suggestion offers: long enough that a chat's pauses never pay a reload. */
export const SLEEP_IDLE_SUGGESTED_S = 300

export const LINT_RULES: readonly LintRule[] = [
  {
    id: 'lint.flag-rejected',
    level: 'error',
    summary: 'a flag or value this llama-server binary rejects (it would exit with "invalid argument"), with the replacement where known',
    check: ({ args, binaryInfo }) => {
      if (!binaryInfo || binaryInfo.flags.size === 0) return []
      const seen = new Set<string>()
      const out: LintFinding[] = []
      for (const p of checkArgs(args, binaryInfo)) {
        if (p.kind === 'ineffective' || seen.has(p.flag)) continue
        seen.add(p.flag)
        const replacement = p.replacement
        const f =
          p.kind === 'bad-value'
            ? null
            : replacement && replacement.length > 0
              ? fix(`Replace ${p.flag} with ${replacement.join(' ')}`, [p.flag], replacement)
              : fix(`Remove ${p.flag}`, [p.flag])
        const headline =
          p.kind === 'bad-value'
            ? `This llama-server (${forkAndVersion(binaryInfo)}) rejects the value of ${p.flag}, so it fails to start.`
            : `This llama-server (${forkAndVersion(binaryInfo)}) does not accept ${p.flag}, so it fails to start.`
        out.push(finding('lint.flag-rejected', 'error', { headline, reason: binarySentence(p.message, binaryInfo) }, f, p.flag))
      }
      return out
    },
  },
  {
    id: 'lint.draft-unused',
    level: 'warn',
    summary: 'a draft model this engine loads (VRAM) but never speculates with: mainline v0.5.0 and ik_llama need --spec-type',
    check: ({ args, binaryInfo }) => {
      if (!binaryInfo || binaryInfo.flags.size === 0) return []
      const p = checkArgs(args, binaryInfo).find((x) => x.kind === 'ineffective')
      if (!p || !p.replacement) return []
      return [
        finding(
          'lint.draft-unused',
          'warn',
          {
            headline: 'The draft model takes memory but is never used: this llama-server speculates only with --spec-type.',
            reason: `${binarySentence(p.message, binaryInfo)} See llama.cpp issue #25345.`,
          },
          fix(`Add ${p.replacement.join(' ')}`, [], p.replacement),
        ),
      ]
    },
  },
  {
    id: 'lint.draft-kv-f16',
    level: 'info',
    summary: 'a draft whose f16 KV cache follows the target’s long context',
    check: ({ args, model, draft, binaryInfo }) => {
      if (!draft || !has(args, F.draft) || has(args, F.cacheTypeKDraft) || has(args, F.cacheTypeVDraft)) return []
      if (binaryInfo && binaryInfo.flags.size > 0 && !F.cacheTypeKDraft.some((f) => binaryInfo.flags.has(f))) return []
      const cells = kvCells(model ?? draft, intValue(args, F.ctx), intValue(args, F.parallel))
      const f16 = kvCacheMiB(draft, cells, 'f16', 'f16')
      const q8 = kvCacheMiB(draft, cells, 'q8_0', 'q8_0')
      if (f16 === null || q8 === null || f16 < 256) return []
      return [
        finding(
          'lint.draft-kv-f16',
          'info',
          {
            headline: `The draft model's f16 KV cache takes ${fmtMiB(f16)} of VRAM at ${cells} tokens.`,
            reason:
              `It follows the target's context. On CUDA, llama.cpp reported 768 MiB for Qwen3.5-0.8B at 64K. A q8_0 draft cache takes ${fmtMiB(q8)}, leaving ` +
              `${fmtMiB(f16 - q8)} more for experts on the GPU.`,
          },
          fix('Use a q8_0 draft KV cache', [], ['-ctkd', 'q8_0', '-ctvd', 'q8_0']),
        ),
      ]
    },
  },
  {
    id: 'lint.draft-vocab-mismatch',
    level: 'warn',
    summary: 'a draft model whose vocabulary differs from the target’s: llama-server serves without speculation',
    check: ({ args, vocab }) => {
      if (!vocab || vocab.compatible || !has(args, F.draft)) return []
      return [
        finding(
          'lint.draft-vocab-mismatch',
          'warn',
          {
            headline: "The draft model's vocabulary differs from the target's, so it only costs memory.",
            reason:
              `The vocabularies differ (${vocab.reason}), so llama-server serves without speculation. Its ` +
              `log says "the target and draft vocabs are not compatible". Use a draft of the same family ` +
              `(Qwen3.5-0.8B for Qwen3.6-35B-A3B gave +26% on an RTX 4060 Laptop, 8 GB).`,
          },
          fix('Remove the draft model', [...F.draft, ...F.draftGpuLayers, ...F.specType]),
        ),
      ]
    },
  },
  {
    id: 'lint.mmap-with-cpu-experts',
    level: 'warn',
    summary: 'experts on the CPU with mmap still on: every token page-faults on expert weights',
    check: (input) => {
      const where = cpuExperts(input.args)
      if (!where || mmapOff(input.args)) return []
      const lm = usesLoadMode(input)
      const f = lm
        ? fix('Load the weights into RAM (-lm none)', [...F.loadMode, ...F.mmap], ['-lm', 'none'])
        : fix('Load the weights into RAM (--no-mmap)', [...F.mmap], ['--no-mmap'])
      return [
        finding(
          'lint.mmap-with-cpu-experts',
          'warn',
          {
            headline: `Experts run on the CPU (${where}) from a memory-mapped model, which slows generation.`,
            reason:
              `Each token page-faults on expert weights. Loading them into RAM took generation ` +
              `from ~11 to ~43 tok/s on an RTX 4060 Laptop (8 GB); llama.cpp itself hints ` +
              `at it. Add ${lm ? '-lm none' : '--no-mmap'}. ` +
              `It costs load time, since every weight is read into RAM before the server answers: ${LOAD_MODE_NONE_LOAD}.`,
          },
          f,
        ),
      ]
    },
  },
  {
    id: 'lint.mlock-no-mmap-windows',
    level: 'error',
    summary: '--mlock together with --no-mmap (-lm mlock) on Windows: CUDA out-of-memory, and a privilege requirement',
    check: ({ args, platform }) => {
      if (platform !== 'win32') return []
      const lm = lastValue(args, F.loadMode)
      const both = (has(args, F.mlock) && has(args, F.noMmap)) || (lm !== null && /^mlock$/i.test(lm))
      if (!both) return []
      const lmMlock = lm !== null && /^mlock$/i.test(lm)
      const f = lmMlock ? fix('Use -lm none (no mlock)', [...F.mlock, ...F.loadMode], ['-lm', 'none']) : fix('Remove --mlock', [...F.mlock])
      return [
        finding(
          'lint.mlock-no-mmap-windows',
          'error',
          {
            headline: 'Using --mlock with --no-mmap can fail with a CUDA out-of-memory error on Windows.',
            reason:
              'It did on an RTX 4060 Laptop (8 GB, Windows 11), and on Windows --mlock also needs the "Lock pages in memory" ' +
              'privilege. --no-mmap alone already keeps the weights in RAM.',
          },
          f,
        ),
      ]
    },
  },
  {
    id: 'lint.iquant-cpu-experts',
    level: 'warn',
    summary: 'an i-quant model (from the GGUF tensor types) with experts on the CPU: K-quants have fast CPU kernels',
    check: (input) => {
      const where = cpuExperts(input.args)
      const t = expertType(input)
      if (!where || !t || !t.iq) return []
      return [
        finding(
          'lint.iquant-cpu-experts',
          'warn',
          {
            headline: `The experts are ${t.name.toUpperCase()}, an i-quant, which is slow on the CPU (${where}).`,
            reason:
              `On the CPU i-quants are slower than K-quants. I-quants decode through lookup tables, ` +
              `slow on a CPU; K-quants have optimised, repacked CPU kernels. On an RTX 4060 ` +
              `Laptop (8 GB) with Qwen3.6-35B-A3B, IQ4_XS was ~35% slower than Q4_K_M (4.1 vs 6.3 tok/s) even though Q4_K_M is ` +
              `larger. Prefer a Q4_K_M/Q5_K_M file of this model.`,
          },
          null,
        ),
      ]
    },
  },
  {
    id: 'lint.hybrid-kv-quant',
    level: 'info',
    summary: 'KV-cache quantisation on a hybrid (attention + recurrent) model whose KV cache is small',
    check: (input) => {
      const kv = hybridKv(input)
      if (!kv || (kv.typeK === 'f16' && kv.typeV === 'f16') || kv.share >= SMALL_KV_SHARE) return []
      const m = input.model
      const attn = m ? m.layers.filter((l) => l.kind === 'attention').length : 0
      const configured =
        kv.configured !== null ? `${fmtMiB(kv.configured)} with ${kv.typeK}/${kv.typeV}` : `less with ${kv.typeK}/${kv.typeV}`
      return [
        finding(
          'lint.hybrid-kv-quant',
          'info',
          {
            headline: 'Quantising the KV cache of this hybrid model saves little memory and costs quality.',
            reason:
              `Only ${attn} of ${m?.blockCount ?? '?'} layers have one. At ${kv.cells} tokens it ` +
              `is ${fmtMiB(kv.f16)} at f16 (${configured}), ${Math.round(kv.share * 100)}% of the ` +
              `weights (Qwen3.6-35B-A3B: ~295 MiB at 64K, almost no speed gain on an RTX 4060 Laptop).`,
          },
          fix('Use the default f16 KV cache', [...F.cacheTypeK, ...F.cacheTypeV]),
        ),
      ]
    },
  },
  {
    id: 'lint.hybrid-flash-attn',
    level: 'info',
    summary: 'flash attention forced on for a hybrid model with few attention layers',
    check: (input) => {
      const kv = hybridKv(input)
      if (!kv || !flashAttnOn(input.args) || kv.share >= SMALL_KV_SHARE) return []
      // A quantised V cache needs flash attention: then only the KV rule speaks.
      if (kv.typeV !== 'f16' && kv.typeV !== 'f32' && kv.typeV !== 'bf16') return []
      const attn = input.model?.layers.filter((l) => l.kind === 'attention').length ?? 0
      return [
        finding(
          'lint.hybrid-flash-attn',
          'info',
          {
            headline: `Flash attention only speeds up the ${attn} attention layers of this hybrid model.`,
            reason:
              `Its KV cache is ${fmtMiB(kv.f16)} at ${kv.cells} tokens. On an RTX 4060 ` +
              `Laptop (8 GB) with Qwen3.6-35B-A3B it was no help and slightly slower.`,
          },
          fix('Let llama-server decide (-fa auto)', [...F.flashAttn], ['-fa', 'auto']),
        ),
      ]
    },
  },
  {
    id: 'lint.draft-reasoning',
    level: 'warn',
    summary: 'a draft model with --reasoning-budget or enable_thinking in --chat-template-kwargs: reported to fail; use --reasoning off',
    check: ({ args }) => {
      if (!has(args, F.draft)) return []
      const budget = intValue(args, F.reasoningBudget)
      const kwargsText = lastValue(args, F.templateKwargs)
      const kwargs = parseKwargs(kwargsText)
      const thinking = kwargs && 'enable_thinking' in kwargs ? kwargs.enable_thinking : undefined
      const badBudget = has(args, F.reasoningBudget) && budget !== -1
      if (!badBudget && thinking === undefined) return []
      const wantsOff = budget === 0 || thinking === false
      const add: string[] = []
      const remove: string[] = [...F.reasoningBudget]
      if (thinking !== undefined && kwargs) {
        remove.push(...F.templateKwargs)
        const { enable_thinking: _drop, ...rest } = kwargs
        if (Object.keys(rest).length > 0) add.push('--chat-template-kwargs', JSON.stringify(rest))
      }
      if (wantsOff) {
        remove.push(...F.reasoning)
        add.push('--reasoning', 'off')
      }
      const what = [
        badBudget ? `--reasoning-budget ${budget ?? lastValue(args, F.reasoningBudget)}` : null,
        thinking !== undefined ? `enable_thinking in --chat-template-kwargs` : null,
      ]
        .filter(Boolean)
        .join(' and ')
      return [
        finding(
          'lint.draft-reasoning',
          'warn',
          {
            headline: `With a draft model, ${what} was reported to make it fail.`,
            reason:
              'It failed with "invalid argument". With Qwen3.6-35B-A3B and a Qwen3.5-0.8B ' +
              'draft the template is applied to the draft too; only --reasoning off worked.',
          },
          fix(wantsOff ? 'Use --reasoning off' : `Remove ${what}`, remove, add),
        ),
      ]
    },
  },
  {
    id: 'lint.exposed-without-key',
    level: 'error',
    summary: 'listening on a non-loopback address without an API key',
    check: ({ args }) => {
      const host = lastValue(args, F.host)
      if (host === null || isLoopbackHost(host)) return []
      if (has(args, F.apiKey)) {
        // A key that is there but empty or short opens the server as surely as none (api-key-rules.ts); files are read at start.
        const weak = usesOf(args, INLINE_KEY)
          .map((u) => (u.value === null ? null : keyListProblem(u.value, u.flag)))
          .find((p) => p)
        if (!weak) return []
        return [
          finding(
            'lint.exposed-without-key',
            'error',
            {
              headline: `The API key does not protect the server on ${host}, so Llama Tray refuses to start it.`,
              reason: keyProblemSentence(weak),
            },
            fix('Listen on 127.0.0.1 only', [...F.host], ['--host', '127.0.0.1']),
          ),
        ]
      }
      return [
        finding(
          'lint.exposed-without-key',
          'error',
          {
            headline: `Without --api-key, --host ${host} opens the server to anyone: Llama Tray refuses to start it.`,
            reason: 'A shared RTX 3090 setup used 0.0.0.0. Listen on 127.0.0.1, or add --api-key-file.',
          },
          fix('Listen on 127.0.0.1 only', [...F.host], ['--host', '127.0.0.1']),
        ),
      ]
    },
  },
  {
    id: 'lint.duplicate-flag',
    level: 'warn',
    summary: 'a flag given twice (switches may be intended: warn, no rewrite; values: the last one wins)',
    check: ({ args }) => {
      const groups = new Map<string, ReturnType<typeof flagUses>>()
      for (const u of flagUses(args)) {
        if (REPEATABLE.has(u.flag)) continue
        const key = fieldForFlag(u.flag)?.key ?? u.flag
        groups.set(key, [...(groups.get(key) ?? []), u])
      }
      const out: LintFinding[] = []
      for (const uses of groups.values()) {
        if (uses.length < 2) continue
        const first = uses[0] as (typeof uses)[number]
        const last = uses[uses.length - 1] as (typeof uses)[number]
        const spellings = [...new Set(uses.map((u) => u.flag))]
        if (uses.every((u) => u.value === null)) {
          out.push(
            finding(
              'lint.duplicate-flag',
              'warn',
              {
                headline: `The flag ${first.flag} is given ${uses.length} times, with no further effect.`,
                reason: 'That may be intended: an ik_llama.cpp command for Qwen3.6-35B-A3B APEX passes -vhad -vhad.',
              },
              null,
              first.flag,
            ),
          )
        } else {
          const values = uses.map((u) => `${u.flag}${u.value === null ? '' : ` ${u.value}`}`).join(', ')
          out.push(
            finding(
              'lint.duplicate-flag',
              'warn',
              {
                headline: `The flag ${first.flag} is given ${uses.length} times; llama-server keeps only the last.`,
                reason: `It is given as ${values}, and ${`${last.flag} ${last.value ?? ''}`.trim()} wins.`,
              },
              fix(
                `Keep only ${last.flag} ${last.value ?? ''}`.trim(),
                spellings,
                last.value === null ? [last.flag] : [last.flag, last.value],
              ),
              first.flag,
            ),
          )
        }
      }
      return out
    },
  },
  {
    id: 'lint.ctx-above-training',
    level: 'warn',
    summary: 'a context per slot above the model’s training context',
    check: ({ args, model }) => {
      const ctx = intValue(args, F.ctx)
      if (!model || model.trainingContext <= 0 || ctx === null || ctx <= 0) return []
      const parallel = intValue(args, F.parallel)
      const split = parallel !== null && parallel > 1 && !has(args, F.kvUnified)
      const perSlot = split ? Math.floor(ctx / parallel) : ctx
      if (perSlot <= model.trainingContext) return []
      const wanted = model.trainingContext * (split ? parallel : 1)
      return [
        finding(
          'lint.ctx-above-training',
          'warn',
          {
            headline: `The context -c ${ctx} gives ${perSlot} tokens per slot, above the model's training context (${model.trainingContext}).`,
            reason: 'Then llama-server warns of "training context overflow" and caps the slot, and quality past it is not trained.',
          },
          fix(`Set -c ${wanted}`, [...F.ctx], ['-c', String(wanted)]),
        ),
      ]
    },
  },
  {
    id: 'lint.fit-aborts',
    level: 'warn',
    summary: 'auto-fit (-fit on) with -ngl, -ts, -ot or --n-cpu-moe set: fit only keeps them or gives up',
    check: ({ args, binaryInfo }) => {
      if (binaryInfo?.fork === 'ik_llama') return []
      const fitValue = lastValue(args, F.fit)
      if (fitValue === null || !/^(on|1|true)$/i.test(fitValue)) return []
      const set = [F.gpuLayers, F.tensorSplit, F.overrideTensor, F.nCpuMoe, F.cpuMoe].flatMap((names) =>
        usesOf(args, names)
          .slice(0, 1)
          .map((u) => u.flag),
      )
      if (set.length === 0) return []
      return [
        finding(
          'lint.fit-aborts',
          'warn',
          {
            headline: `With ${set.join(', ')} given, -fit on has nothing to do and cannot stop an offload that does not fit.`,
            reason:
              `It keeps that offload when it fits and loads it anyway when it does not. It only changes what ` +
              `the user left unset: it logs "no changes needed", or "failed to fit params to free device ` +
              `memory: … already set by user, abort". Drop those flags to let it fit, or turn it off.`,
          },
          fix('Turn auto-fit off (-fit off)', [...F.fit], ['-fit', 'off']),
        ),
      ]
    },
  },
  {
    id: 'lint.auto-slots',
    level: 'warn',
    summary: 'mainline’s automatic 4 slots when a context is set and -np is not',
    check: ({ args, binaryInfo, model }) => {
      if (!binaryInfo || (binaryInfo.fork !== 'mainline' && binaryInfo.fork !== 'buun')) return []
      const ctx = intValue(args, F.ctx)
      if (ctx === null || ctx <= 0 || has(args, F.parallel)) return []
      const recurrent =
        model && isHybrid(model)
          ? ` and on this hybrid model 3 more copies of the recurrent state (${fmtMiB(3 * recurrentMiBPerSequence(model))})`
          : ''
      return [
        finding(
          'lint.auto-slots',
          'warn',
          {
            headline: `With -c ${ctx} and no -np, this llama-server serves 4 slots, so buffers are sized for 4 sequences.`,
            reason:
              `They share the context of -c ${ctx} (unified KV), and compute buffers are sized for 4 sequences${recurrent}. ` +
              'For one user, set -np 1.',
          },
          fix('Use one slot (-np 1)', [], ['-np', '1']),
        ),
      ]
    },
  },
  {
    id: 'lint.mtp-enabled',
    level: 'info',
    summary: 'a multi-token-prediction (MTP) head enabled: slower on an RTX 3090 with Qwen3.6-35B-A3B APEX',
    check: ({ args }) => {
      const spec = usesOf(args, F.specType)
      const mtpSpec = spec.filter((u) => u.value !== null && u.value.split(',').some((t) => /^(draft-)?mtp(:|$)/i.test(t.trim())))
      const legacy = usesOf(args, F.mtp)
      if (mtpSpec.length === 0 && legacy.length === 0) return []
      const keep = spec.flatMap((u) => (u.value ?? '').split(',').filter((t) => t.trim() !== '' && !/^(draft-)?mtp(:|$)/i.test(t.trim())))
      return [
        finding(
          'lint.mtp-enabled',
          'info',
          {
            headline: 'The MTP head is on, and it can make the server slower.',
            reason:
              'On an RTX 3090 with Qwen3.6-35B-A3B APEX it was slower: prefill almost always, generation often. ' +
              'Compare both with llama-tray bench before keeping it.',
          },
          fix('Turn MTP off', [...F.specType, ...F.mtp], keep.length > 0 ? ['--spec-type', keep.join(',')] : []),
        ),
      ]
    },
  },
  {
    id: 'lint.sleep-idle',
    level: 'info',
    summary: 'on a laptop, a server that never sleeps holds its VRAM while idle (--sleep-idle-seconds unloads the model)',
    check: ({ args, binaryInfo, laptop }) => {
      if (laptop !== true || has(args, F.sleepIdle)) return []
      // Mainline and buun have it (the pinned v0.5.0 build); ik_llama.cpp does not.
      if (binaryInfo && !F.sleepIdle.some((f) => binaryInfo.flags.has(f))) return []
      return [
        finding(
          'lint.sleep-idle',
          'info',
          {
            headline: "On a laptop the model holds the GPU's memory while nothing asks it anything.",
            reason:
              `With --sleep-idle-seconds ${SLEEP_IDLE_SUGGESTED_S} llama-server unloads it after ${SLEEP_IDLE_SUGGESTED_S / 60} ` +
              `idle minutes (VRAM freed for other apps; the log says "entering sleeping state") and reloads it for the next ` +
              `request, which then waits one model load. Llama Tray never wakes it by itself.`,
          },
          fix(
            `Sleep after ${SLEEP_IDLE_SUGGESTED_S / 60} idle minutes (--sleep-idle-seconds ${SLEEP_IDLE_SUGGESTED_S})`,
            [],
            ['--sleep-idle-seconds', String(SLEEP_IDLE_SUGGESTED_S)],
          ),
        ),
      ]
    },
  },
  ...FIT_RULES,
]

const ORDER: Readonly<Record<WarningLevel, number>> = { error: 0, warn: 1, info: 2 }

/** Every finding of every rule, errors first (a rule that throws on odd input is reported as such, never crashes the lint). */
export function lintArgs(input: LintInput, rules: readonly LintRule[] = LINT_RULES): LintFinding[] {
  const out: LintFinding[] = []
  for (const rule of rules) {
    try {
      out.push(...rule.check(input))
    } catch (err) {
      out.push(
        finding(
          'lint.rule-failed',
          'info',
          { headline: `The rule ${rule.id} could not run.`, reason: asSentence(err instanceof Error ? err.message : String(err)) },
          null,
          rule.id,
        ),
      )
    }
  }
  return out.sort((a, b) => ORDER[a.level] - ORDER[b.level])
}
