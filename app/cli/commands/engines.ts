import { detectEngine, EngineDetectError } from '../../profiles/engine-detect'
import { ProfileStore } from '../../profiles/store'
import { UsageError } from '../cli-error'
import type { CliCommand, CliContext } from '../command'
import { parseOptions } from '../parse-options'

async function run(args: readonly string[], io: CliContext): Promise<number> {
  const { values, positionals } = parseOptions(args, { json: { type: 'boolean' } }, true)
  let binaries = positionals
  if (binaries.length === 0) {
    const store = await ProfileStore.open(io.home)
    binaries = [...new Set(store.file.profiles.map((p) => p.binary).filter((b) => b !== ''))]
    if (binaries.length === 0) throw new UsageError('no binary given and no profile names one: llama-tray engines /path/to/llama-server')
  }
  const rows = []
  for (const b of binaries) {
    try {
      const e = await detectEngine(io.home, b)
      rows.push({ binary: e.binary, kind: e.kind, version: e.version, commit: e.commit, flagCount: e.flags.size, cacheTypes: e.cacheTypes, flags: values.json ? [...e.flags].sort() : undefined })
    } catch (err) {
      if (err instanceof EngineDetectError) rows.push({ binary: b, error: err.message })
      else throw err
    }
  }
  if (values.json) io.stdout.write(`${JSON.stringify(rows)}\n`)
  else for (const r of rows) io.stdout.write('error' in r ? `${r.binary}: ${r.error}\n` : `${r.binary}: ${r.kind}${r.version ? ` ${r.version}` : ''}${r.commit ? ` (${r.commit})` : ''}, ${r.flagCount} flags\n`)
  return rows.some((r) => 'error' in r) ? 1 : 0
}

export const enginesCommand: CliCommand = {
  name: 'engines',
  summary: 'detect what a llama-server binary is (mainline, ik_llama, buun) and the flags it accepts',
  usage: '  llama-tray engines [<binary>…] [--json]   (default: the binaries of your profiles)',
  run,
}
