import type { GgufModel } from '../../../app/fit/gguf-model'
import { tokenizeCommandLine } from '../../../app/lib/command-line'
import { SEED_3090_BUUN_I_QUALITY, SEED_3090_IK_I_COMPACT, SEED_4060_QWEN36 } from '../../../app/profiles/seed-commands'
import type { LintFinding, LintInput, LintRule } from '../../../app/advisor/lint-input'
import { LINT_RULES, lintArgs } from '../../../app/advisor/rules'
import type { fixtureEngines, SeedModels } from './fixtures'

/** Argument lists that make the rules speak: the shapes the rule tests use, and the three pasted commands of the fixtures. */
export const ARG_LISTS: readonly (readonly string[])[] = [
  ['--fit', 'on', '-ngl', '99'],
  ['--host', '0.0.0.0', '--api-key', 'a-good-key-1'],
  ['--host', '0.0.0.0', '--api-key-file', 'k.txt'],
  ['--host', '0.0.0.0'],
  ['--host', '127.0.0.1'],
  ['--n-cpu-moe', '30'],
  ['--n-cpu-moe', '33'],
  ['--n-cpu-moe', '34'],
  ['--n-cpu-moe', '4'],
  ['--no-mmap', '--mlock'],
  ['--no-mmap', '-c', '4096'],
  ['--no-mmap'],
  ['--reasoning-budget', '0'],
  ['--sleep-idle-seconds', '-1'],
  ['--sleep-idle-seconds', '600'],
  ['--spec-type', 'draft-mtp'],
  ['--spec-type', 'draft-simple'],
  ['--spec-type', 'ngram-mod:n_max=64', '--spec-type', 'mtp:n_max=1'],
  ['-c', '16384'],
  ['-c', '196608', '-np', '1', '-ctk', 'q8_0', '-ctv', 'q5_0'],
  ['-c', '4096', '--ctx-size', '8192'],
  ['-c', '4096', '-ctk', 'q8_0'],
  ['-c', '4096', '-np', '1'],
  ['-c', '4096'],
  ['-c', '65536', '-np', '1', '-ctk', 'turbo3', '-ctv', 'turbo3'],
  ['-c', '65536', '-np', '1', '-fa', 'auto'],
  ['-c', '65536', '-np', '1', '-fa', 'on', '-ctv', 'q4_0'],
  ['-c', '65536', '-np', '1', '-fa', 'on'],
  ['-c', '65536', '-np', '1', '-md', 'd.gguf', '-ctkd', 'q8_0', '-ctvd', 'q8_0'],
  ['-c', '65536', '-np', '1', '-md', 'd.gguf'],
  ['-c', '65536', '-np', '1'],
  ['-c', '65536', '-np', '4'],
  ['-c', '65536'],
  ['-c', '8192', '-np', '1', '-md', 'd.gguf'],
  ['-fit', 'off', '--n-cpu-moe', '33'],
  ['-fit', 'off', '-ngl', '99'],
  ['-fit', 'off'],
  ['-fit', 'on', '--n-cpu-moe', '30'],
  ['-fit', 'on', '--n-cpu-moe', '33'],
  ['-fit', 'on', '-c', '4096'],
  ['-fitt', '1640'],
  ['-fitt', '512'],
  ['-lm', 'mlock'],
  ['-lm', 'none'],
  ['-m', 'm.gguf'],
  ['-m', 't.gguf', '-md', 'd.gguf'],
  ['-m', 't.gguf', '-md', 'd2.gguf', '-ngld', '99'],
  ['-md', 'd.gguf', '--chat-template-kwargs', '{"enable_thinking":false,"x":1}'],
  ['-md', 'd.gguf', '--reasoning', 'off'],
  ['-md', 'd.gguf', '--reasoning-budget', '0'],
  ['-md', 'd.gguf', '--spec-type', 'draft-simple'],
  ['-md', 'd.gguf'],
  ['-ngl', '99'],
  ['-ngl', '999', '--n-cpu-moe', '33', '-c', '65536'],
  ['-ot', 'a=CPU', '-ot', 'b=CPU', '--spec-type', 'x', '--spec-type', 'y'],
  ['-vhad'],
  [],
]

/** Every finding the lint rules give for the argument lists and the seed commands, on every engine, model, platform and vocabulary. */
export function lintEveryFixture(
  models: SeedModels,
  tiny: GgufModel,
  engines: Awaited<ReturnType<typeof fixtureEngines>>,
  rules: readonly LintRule[] = LINT_RULES,
): LintFinding[] {
  const argsOf = (cmd: string): string[] => {
    const argv = tokenizeCommandLine(cmd)
    return argv[0]?.startsWith('-') ? argv : argv.slice(1)
  }
  const argLists = [...ARG_LISTS, ...[SEED_4060_QWEN36, SEED_3090_IK_I_COMPACT, SEED_3090_BUUN_I_QUALITY].map(argsOf)]
  const out: LintFinding[] = []
  for (const args of argLists)
    for (const engine of [null, engines.mainline, engines.ik, engines.buun])
      for (const [model, draft] of [
        [null, null],
        [models.qwen36, models.draft],
        [models.qwen36Iq, null],
        [tiny, null],
      ] as const)
        for (const platform of ['linux', 'win32'] as const)
          for (const vocab of [null, { compatible: false, reason: 'the token lists differ' }]) {
            const input: LintInput = { args, platform, binaryInfo: engine, model, draft, vocab, laptop: platform === 'win32' }
            out.push(...lintArgs(input, rules))
          }
  return out
}
