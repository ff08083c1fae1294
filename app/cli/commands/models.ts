import { resolve } from 'node:path'
import { isDownloadError } from '../../lib/download'
import { modelActions, NoServerBinaryError } from '../../core/model-actions'
import { ModelsError, parseModelRef, type PullProgress } from '../../models'
import { discover } from '../../profiles/discovery'
import { RECIPES, recipeNamed } from '../../profiles/recipes'
import { formatDiscovery } from '../../profiles/discovery-report'
import { UsageError } from '../cli-error'
import type { CliCommand, CliContext } from '../command'
import { didYouMean } from '../did-you-mean'
import { parseOptions } from '../parse-options'
import { MODELS_HELP } from './models-help'

const mb = (bytes: number): string => (bytes / 1e6).toFixed(1)

/** One progress line, rewritten in place on a terminal. */
export function progressLine(p: PullProgress): string {
  const pct = p.total > 0 ? Math.floor((p.bytes / p.total) * 100) : 0
  return `${String(pct).padStart(3)}%  ${mb(p.bytes)} / ${mb(p.total)} MB  ${mb(p.rateBps)} MB/s  ${p.file}`
}

async function pull(args: readonly string[], io: CliContext): Promise<number> {
  const { values, positionals } = parseOptions(args, { file: { type: 'string' }, json: { type: 'boolean' } }, true)
  if (positionals.length !== 1) throw new UsageError('Models pull needs one repo: llama-tray models pull org/name[:quant] [--file NAME].')
  const ref = positionals[0] as string
  try {
    parseModelRef(ref)
  } catch (err) {
    if (err instanceof ModelsError) throw new UsageError(err.message)
    throw err
  }
  const tty = (io.stderr as { isTTY?: boolean }).isTTY === true
  const ac = new AbortController()
  const stop = (): void => ac.abort()
  io.signals.once('SIGINT', stop)
  io.signals.once('SIGTERM', stop)
  try {
    const r = await modelActions({ home: io.home }).pull(ref, {
      file: values.file ?? null,
      signal: ac.signal,
      ...(tty ? { onProgress: (_repo: string, p: PullProgress) => io.stderr.write(`\r${progressLine(p)}\x1b[K`) } : {}),
    })
    if (tty) io.stderr.write('\n')
    if (values.json)
      io.stdout.write(`${JSON.stringify({ repo: r.repo, file: r.file, path: r.path, sizeBytes: r.sizeBytes, sha256: r.sha256 })}\n`)
    else
      io.stdout.write(
        `${r.cached ? 'Already in the cache' : 'Pulled'}: ${r.repo} ${r.file} (${mb(r.sizeBytes)} MB` +
          `${r.parts.length > 1 ? `, ${r.parts.length} parts` : ''}, ` +
          `sha256 verified).\n${r.path}\n`,
      )
    return 0
  } catch (err) {
    if (tty) io.stderr.write('\n')
    if (err instanceof ModelsError || isDownloadError(err)) {
      io.stderr.write(`llama-tray: ${err.message}\n`)
      return 1
    }
    throw err
  } finally {
    io.signals.off('SIGINT', stop)
    io.signals.off('SIGTERM', stop)
  }
}

async function list(args: readonly string[], io: CliContext): Promise<number> {
  const { values } = parseOptions(args, { json: { type: 'boolean' }, 'models-dir': { type: 'string', multiple: true } })
  const found = await discover({ home: io.home, extraModelDirs: (values['models-dir'] ?? []).map((d) => resolve(d)) })
  if (values.json) io.stdout.write(`${JSON.stringify(found.models)}\n`)
  else
    io.stdout.write(
      `${formatDiscovery({ ...found, binaries: [] })
        .split('\n')
        .slice(1)
        .join('\n')}\n`,
    )
  return 0
}

async function recipe(args: readonly string[], io: CliContext): Promise<number> {
  const { values, positionals } = parseOptions(
    args,
    { binary: { type: 'string' }, 'vram-mib': { type: 'string' }, json: { type: 'boolean' } },
    true,
  )
  const id = positionals[0]
  if (id === undefined) {
    if (values.json) io.stdout.write(`${JSON.stringify(RECIPES)}\n`)
    else
      for (const r of RECIPES)
        io.stdout.write(`${r.id}  ${r.title}\n  ${r.target.repo}:${r.target.quant} + ${r.draft.repo}:${r.draft.quant}\n`)
    return 0
  }
  let r
  try {
    r = recipeNamed(id)
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
  const vram = values['vram-mib'] === undefined ? undefined : Number(values['vram-mib'])
  if (vram !== undefined && !(Number.isFinite(vram) && vram > 0))
    throw new UsageError(`The option --vram-mib needs a positive number, got "${values['vram-mib']}".`)
  const tty = (io.stderr as { isTTY?: boolean }).isTTY === true
  try {
    let lastRepo: string | null = null
    const onProgress = (repo: string, p: PullProgress): void => {
      if (lastRepo !== null && repo !== lastRepo) io.stderr.write('\n')
      lastRepo = repo
      io.stderr.write(`\r${progressLine(p)}\x1b[K`)
    }
    // Without --binary, the llama-server the dashboard would pick: an engine Llama Tray installed first.
    const { profile, fit, targetPath, draftPath } = await modelActions({ home: io.home }).applyRecipe(r.id, {
      ...(values.binary ? { binary: resolve(values.binary) } : {}),
      ...(vram !== undefined ? { freeVramMiB: vram } : {}),
      ...(tty ? { onProgress } : {}),
    })
    if (tty) io.stderr.write('\n')
    if (values.json)
      io.stdout.write(
        `${JSON.stringify({ profile: profile.id, target: targetPath, draft: draftPath, nCpuMoe: fit.nCpuMoe, fits: fit.fits })}\n`,
      )
    else
      io.stdout.write(
        `Stored profile ${profile.id}: ${r.title}.\n  --n-cpu-moe ${fit.nCpuMoe} fitted for ` +
          `${vram !== undefined ? `${vram} MiB free` : r.freeVramSource}\n` +
          `Start it with: llama-tray run ${profile.id}\n`,
      )
    return 0
  } catch (err) {
    if (err instanceof NoServerBinaryError) throw new UsageError(err.message)
    if (err instanceof ModelsError || isDownloadError(err)) {
      io.stderr.write(`llama-tray: ${err.message}\n`)
      return 1
    }
    throw err
  }
}

async function run(args: readonly string[], io: CliContext): Promise<number> {
  const [sub, ...rest] = args
  if (sub === 'pull') return pull(rest, io)
  if (sub === 'recipe') return recipe(rest, io)
  if (sub === 'list') return list(rest, io)
  if (sub === undefined) throw new UsageError('Models needs pull, list or recipe, got nothing.')
  throw new UsageError(`Models needs pull, list or recipe, got "${sub}"${didYouMean(sub, ['pull', 'list', 'recipe'])}.`)
}

export const modelsCommand: CliCommand = {
  ...MODELS_HELP,
  run,
}
