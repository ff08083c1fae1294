import { existsSync } from 'node:fs'
import { createStandardCore, standardTelemetry } from '../../core/create-core'
import { engineActions } from '../../core/engine-actions'
import { profileActions } from '../../core/profile-actions'
import { isBackendChoice, BACKEND_CHOICES } from '../../engines/backends'
import { readDriverCuda } from '../../engines/driver-cuda'
import { EngineError } from '../../engines/engine-error'
import type { InstallProgress } from '../../engines/install'
import { verifyEngines } from '../../engines/verify'
import { detectFork, ForkDetectError } from '../../profiles/fork-detect'
import { UsageError } from '../cli-error'
import type { CliCommand, CliContext } from '../command'
import { didYouMean } from '../did-you-mean'
import { parseOptions, positiveNumber } from '../parse-options'
import { ENGINES_HELP, SUBCOMMANDS } from './engines-help'

const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`

/** `engines detect <binary>…` (and the bare `engines [<binary>…]` of before): what a binary is. */
async function detect(args: readonly string[], io: CliContext): Promise<number> {
  const { values, positionals } = parseOptions(args, { json: { type: 'boolean' } }, true)
  let binaries = positionals
  if (binaries.length === 0) {
    const { profiles } = await profileActions({ home: io.home }).list()
    binaries = [...new Set(profiles.map((p) => p.binary).filter((b) => b !== ''))]
    if (binaries.length === 0)
      throw new UsageError('No binary given and no profile names one: llama-tray engines detect /path/to/llama-server.')
  }
  const rows = []
  for (const b of binaries) {
    try {
      const e = await detectFork(io.home, b)
      rows.push({
        binary: e.binary,
        kind: e.fork,
        version: e.version,
        commit: e.commit,
        flagCount: e.flags.size,
        cacheTypes: e.cacheTypes,
        flags: values.json ? [...e.flags].sort() : undefined,
      })
    } catch (err) {
      if (err instanceof ForkDetectError) rows.push({ binary: b, error: err.message })
      else throw err
    }
  }
  if (values.json) io.stdout.write(`${JSON.stringify(rows)}\n`)
  else
    for (const r of rows)
      io.stdout.write(
        'error' in r
          ? `${r.binary}: ${r.error}\n`
          : `${r.binary}: ${r.kind}${r.version ? ` ${r.version}` : ''}${r.commit ? ` (${r.commit})` : ''}, ${r.flagCount} flags\n`,
      )
  return rows.some((r) => 'error' in r) ? 1 : 0
}

/** Progress on stderr: one line per phase, download lines at most every 2 s (every 0.2 s on a terminal, redrawn). */
function progressPrinter(io: CliContext): (p: InstallProgress) => void {
  const tty = Boolean((io.stderr as { isTTY?: boolean }).isTTY)
  let last = 0
  return (p) => {
    if (p.phase === 'download') {
      const now = Date.now()
      const done = p.total !== null && p.total !== undefined && p.bytes === p.total
      if (!done && now - last < (tty ? 200 : 2000)) return
      last = now
      const line = `Downloading ${p.asset}: ${mb(p.bytes ?? 0)}${p.total ? ` of ${mb(p.total)}` : ''}${p.rateBps ? `, ${mb(p.rateBps)}/s` : ''}`
      io.stderr.write(tty ? `\r\x1b[2K${line}${done ? '\n' : ''}` : `${line}\n`)
    } else if (p.phase === 'extract') io.stderr.write(`Extracting ${p.asset}.\n`)
    else if (p.phase === 'verify') io.stderr.write('Checking that llama-server runs.\n')
    else if (p.phase === 'check') io.stderr.write('Checking that llama-server computes on this GPU (a tiny model, 4 tokens).\n')
  }
}

async function install(args: readonly string[], io: CliContext): Promise<number> {
  const { values } = parseOptions(args, { backend: { type: 'string' }, tag: { type: 'string' }, json: { type: 'boolean' } })
  const backend = values.backend ?? 'auto'
  if (!isBackendChoice(backend))
    throw new UsageError(`The option --backend must be one of ${BACKEND_CHOICES.join(', ')}, got "${backend}".`)
  const engine = await engineActions({ home: io.home }).install({ backend, tag: values.tag }, progressPrinter(io))
  // A fallback (a better build failed the GPU check) is said on stderr too, so --json readers see it.
  if (engine.notice) io.stderr.write(`${engine.notice}\n${engine.noticeDetail ? `${engine.noticeDetail.replace(/^/gm, '  ')}\n` : ''}`)
  const notice = engine.notice ? { notice: engine.notice } : {}
  const { id, tag, backend: built, path, version } = engine
  if (values.json) io.stdout.write(`${JSON.stringify({ id, tag, backend: built, path, version, ...notice })}\n`)
  else
    io.stdout.write(
      `${engine.alreadyInstalled ? 'Already installed' : 'Installed'}: ${engine.id} (llama.cpp ` +
        `${engine.tag}${engine.version ? `, version ${engine.version}` : ''})\n  ` +
        `${engine.path}\n`,
    )
  return 0
}

async function list(args: readonly string[], io: CliContext): Promise<number> {
  const { values } = parseOptions(args, { json: { type: 'boolean' } })
  const listing = await engineActions({ home: io.home }).list()
  if (values.json) {
    io.stdout.write(`${JSON.stringify(listing)}\n`)
    return 0
  }
  const { installed, elsewhere } = listing
  io.stdout.write(
    installed.length === 0
      ? 'No engine is installed by Llama Tray yet; llama-tray engines install gets one.\n'
      : 'Installed by Llama Tray:\n',
  )
  for (const e of installed)
    io.stdout.write(
      `  ${e.id}  llama.cpp ${e.tag}, ${e.backend}, ` +
        `${mb(e.sizeBytes)}${e.usedBy.length ? `, used by ${e.usedBy.map((p) => `"${p.name}"`).join(', ')}` : ', not used by a profile'}\n    ` +
        `${e.path}\n`,
    )
  io.stdout.write(elsewhere.length === 0 ? 'No llama-server found elsewhere.\n' : 'Found elsewhere (not managed by Llama Tray):\n')
  for (const b of elsewhere) io.stdout.write(`  ${b.path}  (${b.source}${b.fork ? `, ${b.fork}` : ''})\n`)
  return 0
}

/** `engines verify [<id>]`: the GPU check again (cache ignored) and the files against their install hashes; 1 if any fails. */
async function verify(args: readonly string[], io: CliContext): Promise<number> {
  const { values, positionals } = parseOptions(args, { json: { type: 'boolean' } }, true)
  if (positionals.length > 1) throw new UsageError('Engines verify takes at most one engine id (see llama-tray engines list).')
  const reports = await verifyEngines({ home: io.home, id: positionals[0], driver: readDriverCuda })
  if (values.json) {
    const rows = reports.map((r) => {
      const gpuCheck = r.gpuCheck.ok ? { ok: true } : { ok: false, reason: r.gpuCheck.reason }
      return { id: r.id, ok: r.ok, files: r.files, gpuCheck, sentence: r.sentence }
    })
    io.stdout.write(`${JSON.stringify(rows)}\n`)
  } else if (reports.length === 0) {
    io.stdout.write('No engine is installed by Llama Tray, so there is nothing to verify (llama-tray engines install).\n')
  } else for (const r of reports) io.stdout.write(`${r.sentence}\n`)
  return reports.every((r) => r.ok) ? 0 : 1
}

async function remove(args: readonly string[], io: CliContext): Promise<number> {
  const { values, positionals } = parseOptions(args, { force: { type: 'boolean' }, json: { type: 'boolean' } }, true)
  if (positionals.length !== 1) throw new UsageError('Engines remove needs one engine id (see llama-tray engines list).')
  const removed = await engineActions({ home: io.home }).remove(positionals[0] as string, values.force ?? false)
  if (values.json) io.stdout.write(`${JSON.stringify({ id: removed.id, path: removed.dir, sizeBytes: removed.sizeBytes })}\n`)
  else io.stdout.write(`Removed ${removed.id} (${mb(removed.sizeBytes)} freed).\n`)
  return 0
}

async function update(args: readonly string[], io: CliContext): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    {
      check: { type: 'boolean' },
      backend: { type: 'string' },
      tag: { type: 'string' },
      runs: { type: 'string' },
      tokens: { type: 'string' },
      rounds: { type: 'string' },
      json: { type: 'boolean' },
    },
    true,
  )
  const actions = engineActions({ home: io.home })
  if (values.check) {
    const check = await actions.checkUpdate()
    if (values.json) io.stdout.write(`${JSON.stringify(check)}\n`)
    else if (check.installed === null)
      io.stdout.write(`The latest llama.cpp is ${check.latest.tag}; none is installed by Llama Tray (llama-tray engines install).\n`)
    else
      io.stdout.write(
        check.newer
          ? `llama.cpp ${check.latest.tag} is out (installed: ${check.installed}): llama-tray engines update <profile> tries it with ` +
              `your profile's bench first.\n`
          : `Up to date: ${check.installed} is the latest llama.cpp release (${check.latest.tag}).\n`,
      )
    return 0
  }
  const backend = values.backend
  if (backend !== undefined && !isBackendChoice(backend))
    throw new UsageError(`The option --backend must be one of ${BACKEND_CHOICES.join(', ')}, got "${backend}".`)
  const { profiles } = await profileActions({ home: io.home }).list()
  const profile = positionals[0] ?? profiles.find((p) => p.active)?.id ?? (profiles.length === 1 ? profiles[0]?.id : undefined)
  if (!profile)
    throw new UsageError(
      'Engines update needs a profile (its bench decides whether the new engine is adopted): llama-tray engines update <profile>.',
    )
  const telemetry = standardTelemetry(io.home, { warn: (m) => void io.stderr.write(`llama-tray: ${m}\n`) })
  const core = await createStandardCore({ home: io.home, telemetry })
  const abort = new AbortController()
  const onSignal = (): void => abort.abort()
  io.signals.on('SIGINT', onSignal)
  try {
    const report = await actions.update(profile, {
      bench: { core, home: io.home, signal: abort.signal, onProgress: (p) => io.stderr.write(`${p.message}\n`) },
      backend,
      tag: values.tag,
      onProgress: progressPrinter(io),
      gate: {
        runs: positiveNumber('runs', values.runs, 2),
        tokens: positiveNumber('tokens', values.tokens, 64),
        rounds: positiveNumber('rounds', values.rounds, 2),
      },
    })
    if (values.json) io.stdout.write(`${JSON.stringify(report)}\n`)
    else io.stdout.write(`${report.summary}\n`)
    return report.adopted || report.verdict === null ? 0 : 1
  } finally {
    io.signals.off('SIGINT', onSignal)
    await core.dispose()
  }
}

async function rollback(args: readonly string[], io: CliContext): Promise<number> {
  const { values, positionals } = parseOptions(args, { json: { type: 'boolean' } }, true)
  if (positionals.length !== 1) throw new UsageError('Engines rollback needs one profile.')
  const r = await engineActions({ home: io.home }).rollback(positionals[0] as string)
  io.stdout.write(values.json ? `${JSON.stringify(r)}\n` : `Profile ${r.profileId} runs ${r.binary} again.\n`)
  return 0
}

async function run(args: readonly string[], io: CliContext): Promise<number> {
  const [sub, ...rest] = args
  try {
    switch (sub) {
      case 'install':
        return await install(rest, io)
      case 'list':
        return await list(rest, io)
      case 'verify':
        return await verify(rest, io)
      case 'remove':
        return await remove(rest, io)
      case 'update':
        return await update(rest, io)
      case 'rollback':
        return await rollback(rest, io)
      case 'detect':
        return await detect(rest, io)
      default: {
        // The command of before: `engines [<binary>…]` detects binaries; a word close to a subcommand that is no file is a typo.
        const typo = sub !== undefined && !existsSync(sub) ? didYouMean(sub, SUBCOMMANDS) : ''
        if (typo) throw new UsageError(`Unknown engines command "${sub}"${typo}; known: ${SUBCOMMANDS.join(', ')}.`)
        return await detect(args, io)
      }
    }
  } catch (err) {
    if (!(err instanceof EngineError)) throw err
    io.stderr.write(`llama-tray: ${err.message}\n`)
    return err.kind === 'unknown-engine' || err.kind === 'in-use' || err.kind === 'no-asset' ? 2 : 1
  }
}

export const enginesCommand: CliCommand = {
  ...ENGINES_HELP,
  run,
}
