import type { WarningFix, WarningLevel, WarningWords } from '../contract/warnings'
import type { GgufModel } from '../fit/gguf-model'
import type { ServerBinaryInfo } from '../profiles/fork-detect'
import type { VocabComparison } from './vocab'

/** What the binary accepts (from engine detection); null when the binary is unknown or could not be run. */
export type BinaryView = Pick<ServerBinaryInfo, 'fork' | 'flags' | 'cacheTypes' | 'version'>

export type LintPlatform = 'win32' | 'linux' | 'darwin'

/** Everything the static rules look at. Facts that could not be read are null, and the rules that need them stay silent. */
export interface LintInput {
  /** llama-server's arguments, without the binary. */
  readonly args: readonly string[]
  readonly platform: LintPlatform
  readonly binaryInfo: BinaryView | null
  readonly model: GgufModel | null
  readonly draft: GgufModel | null
  /** Target vs draft tokenizer, when both GGUFs were read. */
  readonly vocab: VocabComparison | null
  /** The machine is a laptop (its NVIDIA GPU says "Laptop GPU", from the live telemetry); absent or null when unknown. */
  readonly laptop?: boolean | null
}

/** A finding's words come apart: its headline (one sentence) and the reason behind it, as the warning carries them. */
export interface LintFinding extends WarningWords {
  /** `<rule>` or `<rule>:<detail>` (e.g. "lint.flag-rejected:--no-mmap"). */
  readonly id: string
  readonly rule: string
  readonly level: WarningLevel
  readonly fix: WarningFix | null
}

export interface LintRule {
  readonly id: string
  /** The level of its findings (a rule may report a lower one on some platforms). */
  readonly level: WarningLevel
  /** What it looks for, in one line (for docs and `lint --rules`). */
  readonly summary: string
  readonly check: (input: LintInput) => readonly LintFinding[]
}

export function asPlatform(p: string): LintPlatform | null {
  return p === 'win32' || p === 'linux' || p === 'darwin' ? p : null
}
