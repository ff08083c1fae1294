import { gatherLintInput, gatherProfileInput, type GatheredInput } from '../../advisor/lint-sources'
import { asPlatform } from '../../advisor/lint-input'
import { formatFindings } from '../../advisor/format-findings'
import { lintArgs } from '../../advisor/rules'
import { importCommand, ImportError } from '../../profiles/import-command'
import { renderArgs } from '../../profiles/profile-args'
import type { Profile } from '../../profiles/schema'
import { ProfileStore } from '../../profiles/store'
import { UsageError } from '../cli-error'
import type { CliCommand, CliContext } from '../command'
import { parseOptions } from '../parse-options'
import { LINT_HELP } from './lint-help'

async function run(args: readonly string[], io: CliContext): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    { cmd: { type: 'string' }, platform: { type: 'string' }, json: { type: 'boolean' } },
    true,
  )
  const platform = values.platform === undefined ? undefined : asPlatform(values.platform)
  if (platform === null) throw new UsageError(`The option --platform takes win32, linux or darwin, got "${values.platform}".`)
  if ((values.cmd === undefined) === (positionals.length === 0) || positionals.length > 1)
    throw new UsageError('Lint needs one profile, or --cmd "<llama-server command>".')
  let gathered: GatheredInput
  let profileId: string | null = null
  if (values.cmd !== undefined) {
    let pasted: Profile
    try {
      pasted = importCommand(values.cmd)
    } catch (err) {
      if (err instanceof ImportError) throw new UsageError(err.message)
      throw err
    }
    // The import keeps the arguments' order and spelling: renderArgs gives them back as typed.
    gathered = await gatherLintInput(io.home, pasted.binary, renderArgs(pasted), { ...(platform ? { platform } : {}) })
  } else {
    const store = await ProfileStore.open(io.home)
    const profile = store.find(positionals[0] as string)
    if (!profile) {
      const known = store.file.profiles.map((p) => p.id)
      throw new UsageError(
        `No profile "${positionals[0]}"` +
          `${known.length ? ` (known: ${known.join(', ')})` : ' (none yet: llama-tray profiles import -- <command>)'}.`,
      )
    }
    profileId = profile.id
    gathered = await gatherProfileInput(io.home, profile, { ...(platform ? { platform } : {}) })
  }
  const findings = lintArgs(gathered.input)
  const errors = findings.filter((f) => f.level === 'error').length
  if (values.json)
    io.stdout.write(
      JSON.stringify({
        profileId,
        platform: gathered.input.platform,
        fork: gathered.input.binaryInfo?.fork ?? null,
        findings,
        notes: gathered.notes,
        errors,
      }) + '\n',
    )
  else io.stdout.write(`${formatFindings(findings, gathered.notes)}\n`)
  return errors > 0 ? 1 : 0
}

export const lintCommand: CliCommand = {
  ...LINT_HELP,
  run,
}
